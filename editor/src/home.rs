//! A folder as the status line shows it: under the home folder as `~/…`,
//! the way shells and file managers write it. Shorter, and a picture of
//! the editor (docs/img/) names no one's home folder.

use std::path::Path;

/// `path` with the home folder (`$HOME`) written `~`.
pub fn shown_folder(path: &Path) -> String {
    let home = std::env::var_os("HOME");
    shown_under(path, home.as_deref().map(Path::new))
}

/// `path` with `home` written `~`; as it is when it is not under `home`
/// (or is `home` itself, or there is none).
fn shown_under(path: &Path, home: Option<&Path>) -> String {
    match home.and_then(|home| path.strip_prefix(home).ok()) {
        Some(rest) if !rest.as_os_str().is_empty() && home != Some(Path::new("/")) => {
            format!("~/{}", rest.display())
        }
        _ => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::shown_under;
    use std::path::Path;

    #[test]
    fn a_folder_under_home_is_written_from_the_tilde() {
        let home = Some(Path::new("/home/ada"));
        assert_eq!(
            shown_under(Path::new("/home/ada/puzzles/mine"), home),
            "~/puzzles/mine"
        );
        // A sibling whose name starts the same is not under it.
        assert_eq!(
            shown_under(Path::new("/home/adam/puzzles"), home),
            "/home/adam/puzzles"
        );
        assert_eq!(shown_under(Path::new("/home/ada"), home), "/home/ada");
        assert_eq!(shown_under(Path::new("/srv/p"), None), "/srv/p");
        // Root as home would make every path `~/…`: shown whole.
        assert_eq!(
            shown_under(Path::new("/srv/p"), Some(Path::new("/"))),
            "/srv/p"
        );
    }
}

//! The claim block every generated level starts with: written by
//! `claim_block`, read back by `Claim::find`, and the line a broken claim
//! is reported at.

use std::path::Path;

use tessera_host::generate::{Claim, Proof, claim_block, command_line, level_body};

fn spec() -> Vec<clap::Arg> {
    vec![
        clap::Arg::new("box").long("box").default_value("3x3x3"),
        clap::Arg::new("pieces")
            .long("pieces")
            .value_parser(clap::value_parser!(u32)),
        clap::Arg::new("unique")
            .long("unique")
            .action(clap::ArgAction::SetTrue),
        clap::Arg::new("assembly")
            .long("assembly")
            .action(clap::ArgAction::SetTrue),
    ]
}

#[test]
fn the_command_line_repeats_the_options_given_and_the_seed() {
    let matches = clap::Command::new("x")
        .args(spec())
        .try_get_matches_from(["x", "--unique", "--pieces", "6"])
        .expect("parses");
    assert_eq!(
        command_line("cubes", &spec(), &matches, 4),
        "generate cubes --pieces 6 --unique --seed 4"
    );
}

#[test]
fn a_claim_block_reads_back_with_its_line_seed_and_spec() {
    let text = format!(
        "{}(\n    version: 1,\n)\n// claim: not a header any more\n",
        claim_block(
            "generate cubes --box 3x3x3 --seed 12",
            "unique (1 distinct packing)",
            "37.2 (medium)"
        )
    );
    let claim = Claim::find(&text).expect("a claim");
    assert_eq!(claim.line, 2);
    assert_eq!(claim.kind(), "unique");
    assert_eq!(claim.seed(), Some(12));
    assert_eq!(claim.spec().as_deref(), Some("generate cubes --box 3x3x3"));
    assert_eq!(claim.difficulty.as_deref(), Some("37.2 (medium)"));
    assert_eq!(
        level_body(&text),
        "(\n    version: 1,\n)\n// claim: not a header any more\n"
    );
}

#[test]
fn a_comment_after_the_ron_begins_is_no_claim() {
    assert_eq!(Claim::find("(\n)\n// claim: unique\n"), None);
    assert_eq!(Claim::find("// Original level.\n(\n)\n"), None);
}

#[test]
fn a_broken_claim_is_reported_at_its_line() {
    let text = "// a note first\n\n// claim: unique\n(\n)\n";
    let claim = Claim::find(text).expect("a claim");
    let Proof::Broken(finding) = claim.broken(Path::new("l.ron"), "2 distinct packings") else {
        panic!("broken");
    };
    assert_eq!(
        finding.to_string(),
        "l.ron:3: the claim `unique` no longer holds: 2 distinct packings"
    );
}

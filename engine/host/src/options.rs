//! What a session starts from besides the level and the seed: the mode and
//! the seats, and what a game offers of both ([`GameSpec`]).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::GameError;

/// Who plays a seat.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seat {
    /// A person, through the editor or an action file.
    Human,
    /// The game's AI at a level the game names (`easy`, `hard`, ...).
    Ai {
        /// The AI level, one of [`GameSpec::ai_levels`].
        level: String,
    },
}

impl Seat {
    /// The AI level, for an AI seat.
    pub fn ai_level(&self) -> Option<&str> {
        match self {
            Seat::Human => None,
            Seat::Ai { level } => Some(level),
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => write!(f, "human"),
            Seat::Ai { level } => write!(f, "ai:{level}"),
        }
    }
}

impl FromStr for Seat {
    type Err = String;

    /// `human` or `ai:LEVEL`, as the command line writes seats.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        if text == "human" {
            return Ok(Seat::Human);
        }
        match text.strip_prefix("ai:") {
            Some(level) if !level.is_empty() => Ok(Seat::Ai {
                level: level.to_string(),
            }),
            _ => Err(format!(
                "seat `{text}`: write `human` or `ai:LEVEL` (e.g. `ai:hard`)"
            )),
        }
    }
}

/// The mode and the seats of a session. Empty fields mean "the game's
/// default"; [`GameSpec::resolve`] fills them in before a game starts, so a
/// started game and its replay always hold complete options.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionOptions {
    /// Mode id (e.g. tetris `classic` or `feed`); `None` = the first mode.
    #[serde(default)]
    pub mode: Option<String>,
    /// One entry per seat, in turn order; empty = the game's default seats.
    #[serde(default)]
    pub seats: Vec<Seat>,
}

impl SessionOptions {
    /// The resolved mode (after [`GameSpec::resolve`]), or `""`.
    pub fn mode(&self) -> &str {
        self.mode.as_deref().unwrap_or("")
    }

    /// The AI level of `seat`, when an AI plays it.
    pub fn ai_level(&self, seat: usize) -> Option<&str> {
        self.seats.get(seat).and_then(Seat::ai_level)
    }
}

/// One mode a game offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModeSpec {
    /// Id used in options, files and on the command line.
    pub id: String,
    /// Human title for menus.
    pub title: String,
    /// The seats this mode is played by when the options name none;
    /// empty = the game's [`GameSpec::default_seats`] (tetris's feed mode
    /// has a feeder and an AI where classic has one player).
    pub default_seats: Vec<Seat>,
}

impl ModeSpec {
    /// A mode played by the game's default seats.
    pub fn new(id: &str, title: &str) -> Self {
        Self {
            id: id.into(),
            title: title.into(),
            default_seats: Vec::new(),
        }
    }
}

/// What a game offers: its modes, how many seats, and its AI levels. The
/// CLI and the editor list choices from here, never from their own strings.
#[derive(Debug, Clone)]
pub struct GameSpec {
    /// Modes, the default first. Never empty.
    pub modes: Vec<ModeSpec>,
    /// Fewest seats.
    pub min_seats: usize,
    /// Most seats.
    pub max_seats: usize,
    /// Seats when the options name none.
    pub default_seats: Vec<Seat>,
    /// AI levels, weakest first (names usually come from the game's script).
    pub ai_levels: Vec<String>,
    /// AI levels accepted by name beyond the listed ones, for a family of
    /// levels with a number in its name (Tetris's `hate:P` for any P in
    /// 0..1, of which `ai_levels` lists a few); `None`: only the listed.
    pub also_accepts: Option<fn(&str) -> bool>,
}

impl GameSpec {
    /// One mode (`play`), one human seat, no AI: the default for puzzles.
    pub fn single_player() -> Self {
        Self {
            modes: vec![ModeSpec::new("play", "Play")],
            min_seats: 1,
            max_seats: 1,
            default_seats: vec![Seat::Human],
            ai_levels: Vec::new(),
            also_accepts: None,
        }
    }

    /// The strongest AI level, for `--ai-only` and similar defaults.
    pub fn strongest_ai(&self) -> Option<&str> {
        self.ai_levels.last().map(String::as_str)
    }

    /// The seats `mode` is played by when the options name none.
    pub fn default_seats_for(&self, mode: &str) -> &[Seat] {
        match self.modes.iter().find(|m| m.id == mode) {
            Some(m) if !m.default_seats.is_empty() => &m.default_seats,
            _ => &self.default_seats,
        }
    }

    /// Checks `options` against what the game offers and fills in the
    /// defaults; the error names the offending value and the choices.
    pub fn resolve(&self, options: &SessionOptions) -> Result<SessionOptions, GameError> {
        let mode = match &options.mode {
            None => self.modes.first().map(|m| m.id.clone()).unwrap_or_default(),
            Some(mode) if self.modes.iter().any(|m| &m.id == mode) => mode.clone(),
            Some(mode) => {
                return Err(GameError::Invalid(format!(
                    "mode `{mode}` does not exist (modes: {})",
                    list(self.modes.iter().map(|m| m.id.as_str()))
                )));
            }
        };
        let seats = if options.seats.is_empty() {
            self.default_seats_for(&mode).to_vec()
        } else {
            options.seats.clone()
        };
        if seats.len() < self.min_seats || seats.len() > self.max_seats {
            let wanted = if self.min_seats == self.max_seats {
                format!("{}", self.min_seats)
            } else {
                format!("{} to {}", self.min_seats, self.max_seats)
            };
            return Err(GameError::Invalid(format!(
                "{} given; this game is played by {wanted}",
                crate::text::count(seats.len(), "seat")
            )));
        }
        for seat in &seats {
            if let Some(level) = seat.ai_level()
                && !self.ai_levels.iter().any(|l| l == level)
                && !self.also_accepts.is_some_and(|accepts| accepts(level))
            {
                return Err(GameError::Invalid(if self.ai_levels.is_empty() {
                    format!("seat `{seat}`: this game has no AI")
                } else {
                    format!(
                        "seat `{seat}`: no AI level `{level}` (levels: {})",
                        list(self.ai_levels.iter().map(String::as_str))
                    )
                }));
            }
        }
        Ok(SessionOptions {
            mode: Some(mode),
            seats,
        })
    }
}

fn list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let items: Vec<&str> = items.collect();
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_player() -> GameSpec {
        GameSpec {
            modes: vec![
                ModeSpec::new("classic", "Classic"),
                ModeSpec::new("feed", "Feed the AI"),
            ],
            min_seats: 2,
            max_seats: 4,
            default_seats: vec![
                Seat::Human,
                Seat::Ai {
                    level: "easy".into(),
                },
            ],
            ai_levels: vec!["easy".into(), "hard".into()],
            also_accepts: None,
        }
    }

    #[test]
    fn defaults_are_filled_in() {
        let resolved = two_player().resolve(&SessionOptions::default()).unwrap();
        assert_eq!(resolved.mode(), "classic");
        assert_eq!(resolved.seats.len(), 2);
        assert_eq!(resolved.ai_level(1), Some("easy"));
        assert_eq!(resolved.ai_level(0), None);
    }

    #[test]
    fn bad_mode_seat_count_and_level_are_named() {
        let spec = two_player();
        let bad_mode = SessionOptions {
            mode: Some("zen".into()),
            seats: vec![],
        };
        let e = spec.resolve(&bad_mode).unwrap_err().to_string();
        assert_eq!(e, "mode `zen` does not exist (modes: classic, feed)");
        let one_seat = SessionOptions {
            mode: None,
            seats: vec![Seat::Human],
        };
        let e = spec.resolve(&one_seat).unwrap_err().to_string();
        assert_eq!(e, "1 seat given; this game is played by 2 to 4");
        let bad_level = SessionOptions {
            mode: None,
            seats: vec![Seat::Human, "ai:god".parse().unwrap()],
        };
        let e = spec.resolve(&bad_level).unwrap_err().to_string();
        assert_eq!(e, "seat `ai:god`: no AI level `god` (levels: easy, hard)");
    }

    #[test]
    fn seats_parse_as_the_command_line_writes_them() {
        assert_eq!("human".parse::<Seat>(), Ok(Seat::Human));
        assert_eq!(
            "ai:hard".parse::<Seat>(),
            Ok(Seat::Ai {
                level: "hard".into()
            })
        );
        assert!("ai:".parse::<Seat>().is_err());
        assert!("robot".parse::<Seat>().is_err());
        assert_eq!(
            Seat::Ai {
                level: "hard".into()
            }
            .to_string(),
            "ai:hard"
        );
    }
}

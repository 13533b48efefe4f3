//! A JSON level naming a key twice (`"box"` given twice) is refused at the
//! second one: serde_json's `Value` silently keeps the last, while a RON
//! level refuses a repeated field, and `check` must not pass a file whose
//! meaning depends on which copy wins.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// A JSON document walked only to refuse repeated keys in any object.
pub(crate) struct UniqueKeys;

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(Walk)
    }
}

struct Walk;

impl<'de> Visitor<'de> for Walk {
    type Value = UniqueKeys;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_i64<E>(self, _: i64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_u64<E>(self, _: u64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_f64<E>(self, _: f64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_str<E>(self, _: &str) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_unit<E>(self) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<UniqueKeys, A::Error> {
        while seq.next_element::<UniqueKeys>()?.is_some() {}
        Ok(UniqueKeys)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<UniqueKeys, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!(
                    "`{key}` is given twice in one object (which one counts would be a guess)"
                )));
            }
            map.next_value::<UniqueKeys>()?;
        }
        Ok(UniqueKeys)
    }
}

#[cfg(test)]
mod tests {
    use super::UniqueKeys;

    #[test]
    fn a_repeated_key_is_refused_at_its_line_and_distinct_keys_pass() {
        let twice = "{\"box\": [1, 1, 1],\n \"box\": [2, 2, 2], \"pieces\": []}";
        let error = serde_json::from_str::<UniqueKeys>(twice)
            .err()
            .expect("refused");
        assert_eq!(error.line(), 2);
        assert!(
            error.to_string().contains("`box` is given twice"),
            "{error}"
        );
        let nested = r#"{"pieces": [{"id": "A", "id": "B"}]}"#;
        assert!(serde_json::from_str::<UniqueKeys>(nested).is_err());
        let fine = r#"{"box": {"A": 1, "B": 2, "C": 3}, "pieces": [[[0, 0, 0]]]}"#;
        assert!(serde_json::from_str::<UniqueKeys>(fine).is_ok());
    }
}

//! [`Key`]: a short identifier (a unit id, a region id) stored inline, so that states stay
//! plain `Copy` data without heap allocations while their JSON stays readable.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// An identifier of at most [`Key::MAX`] bytes of lowercase ASCII letters, digits and `-`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    len: u8,
    bytes: [u8; Key::MAX],
}

impl Key {
    /// The longest key.
    pub const MAX: usize = 15;

    /// Checks and builds a key.
    pub fn new(s: &str) -> Result<Key, String> {
        if s.is_empty() || s.len() > Self::MAX {
            return Err(format!(
                "id {s:?} must be 1 to {} characters long",
                Self::MAX
            ));
        }
        if !s
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            return Err(format!(
                "id {s:?} may hold only lowercase letters, digits and '-'"
            ));
        }
        let mut bytes = [0u8; Self::MAX];
        bytes[..s.len()].copy_from_slice(s.as_bytes());
        Ok(Key {
            len: s.len() as u8,
            bytes,
        })
    }

    /// Is this key the text `s`?
    #[inline]
    pub fn is(&self, s: &str) -> bool {
        &self.bytes[..self.len as usize] == s.as_bytes()
    }

    /// The key as text.
    pub fn as_str(&self) -> &str {
        // Only ASCII is ever stored (checked in `new`).
        std::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or("")
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl Serialize for Key {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Key::new(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_reject_bad_text() {
        let k = Key::new("2nd-nh").unwrap();
        assert_eq!(k.as_str(), "2nd-nh");
        assert_eq!(serde_json::to_string(&k).unwrap(), "\"2nd-nh\"");
        assert!(Key::new("").is_err());
        assert!(Key::new("Morgan").is_err());
        assert!(Key::new("a-very-long-identifier").is_err());
        assert!(serde_json::from_str::<Key>("\"bad id\"").is_err());
    }
}

//! Small helpers for the texts games write for people (issue 17): dice faces shown as faces
//! ("⚄ ⚅ ⚀"), never as a number a reader could take for a roll, and counts with the noun in
//! the right number ("1 hit", "2 hits", "no hits").

/// The face of one die, `1..=6` (anything else is shown as `?`).
pub fn face(d: u8) -> &'static str {
    match d {
        1 => "⚀",
        2 => "⚁",
        3 => "⚂",
        4 => "⚃",
        5 => "⚄",
        6 => "⚅",
        _ => "?",
    }
}

/// The faces of several dice, in the order given, separated by spaces.
pub fn faces(dice: &[u8]) -> String {
    dice.iter().map(|&d| face(d)).collect::<Vec<_>>().join(" ")
}

/// `n` and the noun in the right number: "no hits", "1 hit", "3 hits".
pub fn count(n: usize, one: &str, many: &str) -> String {
    match n {
        0 => format!("no {many}"),
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// `n` and the noun in the right number, with a figure for none: "0 hits", "1 hit".
pub fn number(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "a", "a and b", "a, b and c".
pub fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => format!(
            "{} and {}",
            rest.iter()
                .map(|s| s.as_ref())
                .collect::<Vec<_>>()
                .join(", "),
            last.as_ref()
        ),
    }
}

/// The dice of one roll, kept as a count of each face so that the record is `Copy` and has no
/// limit on the number of dice. Shown highest first: "⚅ ⚅ ⚃ ⚀".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Faces([u8; 6]);

impl Faces {
    /// Adds one die (`1..=6`; anything else is ignored).
    pub fn push(&mut self, d: u8) {
        if (1..=6).contains(&d) {
            self.0[d as usize - 1] = self.0[d as usize - 1].saturating_add(1);
        }
    }

    /// How many dice.
    pub fn len(&self) -> usize {
        self.0.iter().map(|&n| n as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The dice, highest first.
    pub fn dice(&self) -> Vec<u8> {
        (1..=6u8)
            .rev()
            .flat_map(|d| std::iter::repeat_n(d, self.0[d as usize - 1] as usize))
            .collect()
    }
}

impl std::fmt::Display for Faces {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&faces(&self.dice()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_are_glyphs_highest_first() {
        let mut f = Faces::default();
        for d in [5, 6, 1, 6] {
            f.push(d);
        }
        assert_eq!(f.to_string(), "⚅ ⚅ ⚄ ⚀");
        assert_eq!(f.len(), 4);
        assert_eq!(faces(&[3, 1]), "⚂ ⚀");
    }

    #[test]
    fn counts_take_the_noun_in_the_right_number() {
        assert_eq!(count(0, "hit", "hits"), "no hits");
        assert_eq!(count(1, "hit", "hits"), "1 hit");
        assert_eq!(count(2, "Unit", "Units"), "2 Units");
        assert_eq!(number(0, "Unit", "Units"), "0 Units");
        assert_eq!(number(1, "Leader", "Leaders"), "1 Leader");
    }

    #[test]
    fn lists_are_joined_with_and() {
        assert_eq!(and_list(&["a"]), "a");
        assert_eq!(and_list(&["a", "b"]), "a and b");
        assert_eq!(
            and_list(&["7 Regulars", "Smith", "Pitcairn"]),
            "7 Regulars, Smith and Pitcairn"
        );
    }
}

//! The choice list of `muster play` (issue 17): legal actions grouped by what they act on,
//! identical choices (alike counters) on one line, long groups cut short, and a filter by the
//! start of an action or words of its label. Numbers are always the action's place in the
//! legal list, so that a number typed after a filtered list means the same choice.

use muster_core::LegalEntry;

/// Lists longer than this show each long group cut short.
const LONG: usize = 30;
/// A group of a long list with more choices than this shows only its first few.
const GROUP: usize = 8;
/// How many choices a cut group shows.
const SHOWN: usize = 4;

/// What the choices of one group have in common: the notation without its last word
/// (`go reg1 breeds-s` and `go reg1 works-n` are one group; `move D5` and `move D6` another).
fn group_key(action: &str) -> &str {
    match action.trim().rsplit_once(' ') {
        Some((head, _)) => head,
        None => action,
    }
}

/// The words the labels of a group begin with ("Move Morgan's Riflemen (4-4) to").
fn common_words(labels: &[&str]) -> String {
    let mut words: Vec<&str> = labels
        .first()
        .map(|l| l.split(' ').collect())
        .unwrap_or_default();
    for l in &labels[1..] {
        let n = words
            .iter()
            .zip(l.split(' '))
            .take_while(|(a, b)| **a == *b)
            .count();
        words.truncate(n);
    }
    words.join(" ")
}

/// Does a choice match what was typed: its action starts with it, or its label holds it (case
/// aside)?
pub fn matches(l: &LegalEntry, filter: &str) -> bool {
    let f = filter.to_lowercase();
    l.action.to_lowercase().starts_with(&f) || l.label.to_lowercase().contains(&f)
}

/// The lines that list the choices (those matching `filter` when given; none match: no lines).
pub fn list(legal: &[LegalEntry], filter: Option<&str>) -> Vec<String> {
    let chosen: Vec<(usize, &LegalEntry)> = legal
        .iter()
        .enumerate()
        .filter(|(_, l)| filter.is_none_or(|f| matches(l, f)))
        .collect();
    if chosen.is_empty() {
        return Vec::new();
    }
    // Groups in the order of their first choice.
    let mut groups: Vec<(&str, Vec<(usize, &LegalEntry)>)> = Vec::new();
    for (i, l) in &chosen {
        let key = group_key(&l.action);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.push((*i, l)),
            None => groups.push((key, vec![(*i, l)])),
        }
    }
    let long = filter.is_none() && chosen.len() > LONG;
    let headed = groups.len() > 1 && chosen.len() > 10;
    let mut out = Vec::new();
    if let Some(f) = filter {
        out.push(format!(
            "{} of {} choices match {f:?}:",
            chosen.len(),
            legal.len()
        ));
    }
    for (key, members) in &groups {
        if headed && members.len() > 1 {
            let labels: Vec<&str> = members.iter().map(|(_, l)| l.label.as_str()).collect();
            let common = common_words(&labels);
            out.push(format!(
                "  {} ({}):",
                if common.split(' ').count() >= 2 {
                    common
                } else {
                    key.to_string()
                },
                members.len()
            ));
        }
        // Identical labels (alike counters): one line, with the other numbers.
        let mut lines: Vec<(usize, &LegalEntry, Vec<usize>)> = Vec::new();
        for (i, l) in members {
            match lines.iter_mut().find(|(_, x, _)| x.label == l.label) {
                Some((_, _, also)) => also.push(i + 1),
                None => lines.push((*i, l, Vec::new())),
            }
        }
        let cut = long && lines.len() > GROUP;
        let indent = if headed && members.len() > 1 {
            "  "
        } else {
            ""
        };
        for (i, l, also) in lines.iter().take(if cut { SHOWN } else { usize::MAX }) {
            let also = match also.len() {
                0 => String::new(),
                _ => format!(
                    "  (the same: {})",
                    also.iter()
                        .map(|n| n.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            out.push(format!(
                "{indent}  {:>3}. {:<22} {}{also}",
                i + 1,
                l.action,
                l.label
            ));
        }
        if cut {
            out.push(format!(
                "{indent}       … {} more: type \"{key}\" to list them",
                lines.len() - SHOWN
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(action: &str, label: &str) -> LegalEntry {
        LegalEntry {
            action: action.into(),
            label: label.into(),
        }
    }

    #[test]
    fn identical_choices_share_one_line_with_every_number() {
        let legal = vec![
            entry("add reg1", "Pick British Regulars"),
            entry("add reg2", "Pick British Regulars"),
            entry("add howe", "Pick British leader Howe"),
        ];
        let lines = list(&legal, None);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].contains("1.") && lines[0].contains("(the same: 2)"));
    }

    #[test]
    fn a_long_list_cuts_long_groups_and_says_how_to_list_them() {
        let mut legal: Vec<LegalEntry> = (0..40)
            .map(|i| entry(&format!("move H{i}"), &format!("Morgan to H{i}")))
            .collect();
        legal.push(entry("end-movement", "End movement"));
        let lines = list(&legal, None);
        assert!(lines.len() < 12, "{lines:?}");
        assert!(
            lines.iter().any(|l| l.contains("type \"move\"")),
            "{lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.contains("41. end-movement")),
            "{lines:?}"
        );
    }

    #[test]
    fn a_filter_keeps_the_numbers_of_the_whole_list() {
        let legal = vec![
            entry("select morgan", "Move Morgan's Riflemen"),
            entry("select cook", "Move Cook's Militia"),
            entry("end-movement", "End movement"),
        ];
        let lines = list(&legal, Some("end"));
        assert!(lines[0].starts_with("1 of 3 choices"), "{lines:?}");
        assert!(lines[1].contains("3. end-movement"), "{lines:?}");
        assert!(
            list(&legal, Some("cook"))
                .iter()
                .any(|l| l.contains("2. select cook"))
        );
        assert!(list(&legal, Some("nothing like it")).is_empty());
    }
}

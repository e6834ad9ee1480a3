//! Which armies an experiment's matchups join: the groups a report rates
//! together and the families a sequential design corrects within.

use std::collections::HashMap;

/// Connected components of armies (by name) joined by the given matchups,
/// numbered in order of first appearance: the groups rated together, and
/// the classes of the sequential design's Holm families.
pub(crate) fn components<'a>(
    matchups: impl Iterator<Item = (&'a str, &'a str)>,
) -> HashMap<String, usize> {
    let mut component: HashMap<String, usize> = HashMap::new();
    let mut next = 0;
    for (a, b) in matchups {
        match (component.get(a).copied(), component.get(b).copied()) {
            (None, None) => {
                component.insert(a.to_owned(), next);
                component.insert(b.to_owned(), next);
                next += 1;
            }
            (Some(c), None) => {
                component.insert(b.to_owned(), c);
            }
            (None, Some(c)) => {
                component.insert(a.to_owned(), c);
            }
            (Some(x), Some(y)) if x != y => {
                for v in component.values_mut() {
                    if *v == y {
                        *v = x;
                    }
                }
            }
            _ => {}
        }
    }
    component
}

//! The control-flow graph of one function, computed once before its
//! translation: the reachable blocks in reverse post-order, their
//! predecessors, and immediate dominators (Cooper, Harvey and Kennedy's
//! iterative algorithm). Every analysis of the translation reads this one.

use std::collections::{HashMap, HashSet};

use super::ll::B;

pub(crate) struct Cfg<'m> {
    /// The reachable blocks in reverse post-order; `order[0]` is the entry.
    pub order: Vec<B<'m>>,
    /// Block → its index in `order`.
    pub index: HashMap<B<'m>, usize>,
    /// Block → its reachable predecessors, each once.
    pub preds: HashMap<B<'m>, Vec<B<'m>>>,
    /// Index → the index of its immediate dominator (`idom[0] == 0`).
    idom: Vec<usize>,
}

impl<'m> Cfg<'m> {
    /// The graph of the blocks reachable from `entry`.
    pub fn new(entry: B<'m>) -> Cfg<'m> {
        let order = reverse_post_order(entry);
        let index: HashMap<B<'m>, usize> = order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let mut preds: HashMap<B<'m>, Vec<B<'m>>> = HashMap::new();
        for &b in &order {
            for s in successors(b) {
                let ps = preds.entry(s).or_default();
                if !ps.contains(&b) {
                    ps.push(b);
                }
            }
        }
        let idom = immediate_dominators(&order, &index, &preds);
        Cfg {
            order,
            index,
            preds,
            idom,
        }
    }

    /// The reachable predecessors of `b`.
    pub fn preds_of(&self, b: B<'m>) -> &[B<'m>] {
        self.preds.get(&b).map_or(&[], Vec::as_slice)
    }

    /// The immediate dominator of `b` (`None` for the entry and for blocks
    /// not reachable).
    pub fn idom(&self, b: B<'m>) -> Option<B<'m>> {
        let &i = self.index.get(&b)?;
        (i != 0).then(|| self.order[self.idom[i]])
    }

    /// Whether `a` dominates `b` (both reachable; a block dominates itself).
    pub fn dominates(&self, a: B<'m>, b: B<'m>) -> bool {
        match (self.index.get(&a), self.index.get(&b)) {
            (Some(&a), Some(&b)) => self.common_dominator(a, b) == a,
            _ => false,
        }
    }

    /// The nearest common dominator of the blocks at indices `a` and `b`.
    pub fn common_dominator(&self, mut a: usize, mut b: usize) -> usize {
        while a != b {
            while a > b {
                a = self.idom[a];
            }
            while b > a {
                b = self.idom[b];
            }
        }
        a
    }
}

fn successors<'m>(b: B<'m>) -> Vec<B<'m>> {
    b.terminator().map(|t| t.successors()).unwrap_or_default()
}

fn reverse_post_order<'m>(first: B<'m>) -> Vec<B<'m>> {
    let mut seen = HashSet::from([first]);
    let mut post = Vec::new();
    let mut stack: Vec<(B<'m>, Vec<B<'m>>, usize)> = vec![(first, successors(first), 0)];
    while let Some((b, ss, i)) = stack.last_mut() {
        if *i < ss.len() {
            let s = ss[*i];
            *i += 1;
            if seen.insert(s) {
                let n = successors(s);
                stack.push((s, n, 0));
            }
        } else {
            post.push(*b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// Immediate dominators as indices into `order` (reverse post-order of
/// the reachable blocks; index 0 the entry, its own dominator).
fn immediate_dominators<'m>(
    order: &[B<'m>],
    index: &HashMap<B<'m>, usize>,
    preds: &HashMap<B<'m>, Vec<B<'m>>>,
) -> Vec<usize> {
    const NONE: usize = usize::MAX;
    let mut idom = vec![NONE; order.len()];
    if order.is_empty() {
        return idom;
    }
    idom[0] = 0;
    let common = |idom: &[usize], mut a: usize, mut b: usize| {
        while a != b {
            while a > b {
                a = idom[a];
            }
            while b > a {
                b = idom[b];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for (i, b) in order.iter().enumerate().skip(1) {
            let mut new = NONE;
            for p in preds.get(b).into_iter().flatten() {
                let Some(&p) = index.get(p) else { continue };
                if idom[p] == NONE {
                    continue;
                }
                new = if new == NONE {
                    p
                } else {
                    common(&idom, p, new)
                };
            }
            if new != NONE && idom[i] != new {
                idom[i] = new;
                changed = true;
            }
        }
    }
    idom
}

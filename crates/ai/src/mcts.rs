//! Information-set Monte Carlo tree search (single-observer ISMCTS with UCT).
//!
//! Each iteration determinizes the root for the searching side with the game's
//! `determinize` (so the search never reads what that side cannot know: hidden values, deck
//! order, the other side's peeks, the dice key), walks one tree keyed by actions, expands one
//! action, plays out (with the game's knowledge when it has some) and backs the result up.
//! Children count how often they were available, since after chance or hidden information the
//! legal actions of a node differ between determinizations.
//!
//! Root parallelism: each thread grows its own tree from its own seed; visit counts are summed
//! at the root. With an iteration budget the result depends only on the seed.
//!
//! Tree reuse ([`Reuse`], [`search_reusing`]): when the same side decides again with no chance
//! and nothing revealed in between, its next search starts from the subtree under the step it
//! chose.

use muster_core::{Dice, Game, Knowledge, Side};
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// How long to search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// A number of iterations over all threads (deterministic for a given seed).
    Iterations(u32),
    /// A wall-clock limit per decision (not reproducible), with a cap on the iterations over
    /// all threads, so that a quiet machine does not search far past what the level means.
    Time { limit: Duration, cap: u32 },
}

/// Search settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    pub budget: Budget,
    pub threads: usize,
    /// UCT exploration constant.
    pub exploration: f32,
    /// Decisions a playout makes before the game's evaluation may end it; `None` keeps the
    /// game's own ([`Knowledge::playout_depth`]). Set only to measure what depth buys
    /// (`muster sim --depth`, issue 18); the levels keep the game's.
    pub playout_depth: Option<u32>,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            budget: Budget::Iterations(1000),
            threads: 1,
            exploration: 0.7,
            playout_depth: None,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult<A> {
    pub action: A,
    pub iterations: u64,
    /// The root visits a kept tree started the search with (0 when it started afresh).
    pub reused: u64,
    /// Root actions with their visit counts and mean values, most visited first.
    pub root: Vec<(A, u32, f32)>,
}

/// Root children of one tree: action, visits, summed value.
type RootStats<A> = Vec<(A, u32, f32)>;

struct Node<A> {
    action: Option<A>,
    /// The side that chose `action`.
    player: Side,
    children: Vec<u32>,
    visits: u32,
    available: u32,
    /// Sum of the rewards backed up through this node, for `player`.
    value: f64,
    /// Sum of their squares.
    squares: f64,
    /// Where `action` stood in the node's legal list when last found there: a hint that makes
    /// matching the children against a determinization's legal actions about one comparison a
    /// child, since the list is mostly the same from one determinization to the next.
    slot: u16,
}

/// The smallest standard deviation of the rewards below a node that selection scales its
/// exploration to. Plain UCT adds an exploration term sized for rewards spread over `[0, 1]`
/// (a won or lost game, standard deviation about 0.5). In the battle games a playout usually
/// ends in the evaluation, whose values spread by a few hundredths: the term then dwarfs every
/// real difference and the visits stay almost uniform however many iterations are spent
/// (issue 18, docs/performance.md). Selection therefore scales the exploration term by the
/// measured standard deviation of the rewards among a node's children (over 0.5, so games
/// decided by wins and losses search as before): a child's lead counts in units of the noise
/// of its estimate, as UCB-V and other variance-aware bandits do. The floor keeps a node whose
/// rewards hardly vary at all (an evaluation that cannot tell the moves apart) from freezing
/// on whichever child read highest first.
const MIN_SIGMA: f64 = 0.002;
/// The standard deviation plain UCT's exploration term is sized for (rewards of 0 or 1).
const WIN_LOSS_SIGMA: f64 = 0.5;
/// The visits among a node's children before their measured spread is trusted.
const SIGMA_VISITS: u32 = 8;

/// Rewards for both sides at the end of a playout.
fn rewards<G: Knowledge>(game: &G, state: &G::State, sides: usize) -> [f32; 4] {
    let mut r = [0.5f32; 4];
    if let Some(o) = game.outcome(state) {
        for (i, x) in r.iter_mut().enumerate().take(sides) {
            *x = match o.winner {
                Some(w) if w as usize == i => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
    } else {
        for (i, x) in r.iter_mut().enumerate().take(sides) {
            *x = game
                .evaluate(state, i as Side)
                .unwrap_or(0.5)
                .clamp(0.0, 1.0);
        }
    }
    r
}

/// Picks an action by weight (uniformly when all weights are 0).
fn weighted<G: Knowledge>(
    game: &G,
    state: &G::State,
    actions: &[G::Action],
    dice: &mut Dice,
) -> G::Action {
    if actions.len() == 1 {
        return actions[0];
    }
    let mut total = 0u64;
    let mut weights = [0u32; 512];
    let n = actions.len().min(weights.len());
    for (w, &a) in weights.iter_mut().zip(&actions[..n]) {
        *w = game.playout_weight(state, a);
        total += *w as u64;
    }
    if total == 0 {
        return actions[dice.below(actions.len() as u32) as usize];
    }
    let mut x = dice.next_u64() % total;
    for (i, &w) in weights[..n].iter().enumerate() {
        if x < w as u64 {
            return actions[i];
        }
        x -= w as u64;
    }
    actions[n - 1]
}

/// One tree, grown for `budget` (iterations for this thread, or a deadline).
fn grow<G: Knowledge>(
    game: &G,
    root_state: &G::State,
    me: Side,
    (exploration, depth): (f32, Option<u32>),
    (iterations, deadline): (Option<u32>, Option<Instant>),
    seed: u64,
    start: Vec<Node<G::Action>>,
) -> (Vec<Node<G::Action>>, u64) {
    let sides = game.info().sides.len().min(4);
    let mut dice = Dice::from_seed(seed);
    let mut nodes: Vec<Node<G::Action>> = start;
    if nodes.is_empty() {
        nodes.push(Node {
            action: None,
            player: me,
            children: Vec::new(),
            visits: 0,
            available: 0,
            value: 0.0,
            squares: 0.0,
            slot: 0,
        });
    }
    let mut legal = Vec::with_capacity(64);
    let mut path: Vec<u32> = Vec::with_capacity(64);
    let mut untried: Vec<usize> = Vec::with_capacity(64);
    let mut matched: Vec<bool> = Vec::with_capacity(64);
    let mut live: Vec<u32> = Vec::with_capacity(64);
    let depth = depth.unwrap_or_else(|| game.playout_depth());
    let mut done = 0u64;
    loop {
        if let Some(n) = iterations
            && done >= n as u64
        {
            break;
        }
        if let Some(d) = deadline
            && (done % 16 == 0)
            && Instant::now() >= d
            && done > 0
        {
            break;
        }
        done += 1;
        let mut state = root_state.clone();
        {
            let mut rng = DiceRng(&mut dice);
            game.determinize(&mut state, me, &mut rng);
        }
        path.clear();
        path.push(0);
        let mut node = 0u32;
        // Selection and expansion.
        while let Some(side) = game.to_act(&state) {
            crate::candidates(game, &state, &mut legal);
            if legal.is_empty() {
                break;
            }
            // Match the children against this determinization's legal actions once: `live`
            // holds the children whose action is legal here (in the children's order),
            // `untried` the legal actions no child has yet (in the legal order). Legal actions
            // are distinct (the test kit checks it), so one match a child is all there is.
            matched.clear();
            matched.resize(legal.len(), false);
            live.clear();
            for k in 0..nodes[node as usize].children.len() {
                let c = nodes[node as usize].children[k];
                let child = &mut nodes[c as usize];
                let Some(a) = child.action else { continue };
                let hint = child.slot as usize;
                let at = if legal.get(hint) == Some(&a) {
                    Some(hint)
                } else {
                    legal.iter().position(|&x| x == a)
                };
                if let Some(i) = at {
                    child.slot = u16::try_from(i).unwrap_or(u16::MAX);
                    matched[i] = true;
                    live.push(c);
                }
            }
            untried.clear();
            untried.extend((0..legal.len()).filter(|&i| !matched[i]));
            if !untried.is_empty() {
                let at = untried[dice.below(untried.len() as u32) as usize];
                let a = legal[at];
                let a_slot = u16::try_from(at).unwrap_or(u16::MAX);
                // Every child counts one more availability (as before the matching above: all
                // children, not only the live ones). Counting only the live ones, ISMCTS's rule,
                // was tried and made no measurable difference (docs/performance.md, step 12).
                for i in 0..nodes[node as usize].children.len() {
                    let c = nodes[node as usize].children[i] as usize;
                    nodes[c].available += 1;
                }
                if game.apply(&mut state, side, a).is_err() {
                    break;
                }
                let id = nodes.len() as u32;
                nodes.push(Node {
                    action: Some(a),
                    player: side,
                    children: Vec::new(),
                    visits: 0,
                    available: 1,
                    value: 0.0,
                    squares: 0.0,
                    slot: a_slot,
                });
                nodes[node as usize].children.push(id);
                path.push(id);
                break;
            }
            // UCT among the children whose action is legal in this determinization, its
            // exploration scaled to the spread of their rewards (see [`MIN_SIGMA`]).
            let (mut n, mut sum, mut squares) = (0u32, 0f64, 0f64);
            for &c in &live {
                let child = &nodes[c as usize];
                if child.visits > 0 {
                    n += child.visits;
                    sum += child.value;
                    squares += child.squares;
                }
            }
            let sigma = if n >= SIGMA_VISITS {
                let mean = sum / n as f64;
                (squares / n as f64 - mean * mean).max(0.0).sqrt()
            } else {
                WIN_LOSS_SIGMA
            };
            let scale =
                (sigma.clamp(MIN_SIGMA, WIN_LOSS_SIGMA) / WIN_LOSS_SIGMA) as f32 * exploration;
            let mut best = u32::MAX;
            let mut best_score = f32::NEG_INFINITY;
            for &c in &live {
                let child = &mut nodes[c as usize];
                child.available += 1;
                let mean = (child.value / child.visits.max(1) as f64) as f32;
                let score = mean
                    + scale * ((child.available as f32).ln() / child.visits.max(1) as f32).sqrt();
                if score > best_score {
                    best_score = score;
                    best = c;
                }
            }
            if best == u32::MAX {
                break;
            }
            let a = nodes[best as usize].action.expect("child has an action");
            if game.apply(&mut state, side, a).is_err() {
                break;
            }
            node = best;
            path.push(node);
        }
        // Playout.
        let mut steps = 0u32;
        while let Some(side) = game.to_act(&state) {
            if steps >= depth && game.evaluate(&state, side).is_some() {
                break;
            }
            crate::candidates(game, &state, &mut legal);
            if legal.is_empty() {
                break;
            }
            let a = weighted(game, &state, &legal, &mut dice);
            if game.apply(&mut state, side, a).is_err() {
                break;
            }
            steps += 1;
        }
        let r = rewards(game, &state, sides);
        for &n in &path {
            let node = &mut nodes[n as usize];
            node.visits += 1;
            let x = r[node.player as usize & 3] as f64;
            node.value += x;
            node.squares += x * x;
        }
    }
    (nodes, done)
}

/// A `rand_core::Rng` over our dice, for `determinize`.
pub(crate) struct DiceRng<'a>(pub(crate) &'a mut Dice);

impl rand_core::TryRng for DiceRng<'_> {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.0.next_u64() as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.0.next_u64())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(8) {
            let x = self.0.next_u64().to_le_bytes();
            chunk.copy_from_slice(&x[..chunk.len()]);
        }
        Ok(())
    }
}

/// The part of a search tree that the same side's next decision can start from (issue 18: tree
/// reuse). Many decisions of these games come in steps of one side with nothing between them
/// (select a unit, then its hex; pick a supply source, then its destination, then the cubes):
/// the search of the first step has already grown a subtree under the step it chose, and the
/// next step's search starts from that subtree instead of from nothing, so its iterations add
/// to those visits rather than repeat them.
///
/// A tree is kept only when nothing the side may not know, and no chance, came between: the
/// chosen action rolled no die and revealed nothing ([`muster_core::Game::is_chance`] of its
/// events) and the same side decides again. It applies only to exactly the state it expects
/// (the true state after that action), so a decision in any other position searches afresh.
/// The tree holds statistics of the side's own determinizations only, as any search does.
pub struct Reuse<G: Game> {
    expected: G::State,
    nodes: Vec<Node<G::Action>>,
}

impl<G: Game> Reuse<G> {
    /// The visits the kept subtree's root children start the next decision with.
    pub fn visits(&self) -> u64 {
        self.nodes.first().map_or(0, |n| {
            n.children
                .iter()
                .map(|&c| self.nodes[c as usize].visits as u64)
                .sum()
        })
    }

    /// Whether the next decision's search would start from this tree in `state`.
    pub fn applies_to(&self, state: &G::State) -> bool {
        self.expected == *state
    }

    /// Nodes kept.
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }
}

/// The most nodes a kept subtree may hold, in multiples of the decision's iterations (a long
/// chain of one side's steps keeps at most this much memory).
const REUSE_NODES: usize = 4;

/// The subtree under `action` at the root of `nodes`, re-rooted, if the same side's next
/// decision may start from it (see [`Reuse`]).
fn advance<G: Game>(
    game: &G,
    state: &G::State,
    me: Side,
    nodes: &[Node<G::Action>],
    action: G::Action,
    max_nodes: usize,
) -> Option<Reuse<G>> {
    let mut next = state.clone();
    let events = game.apply(&mut next, me, action).ok()?;
    if events.iter().any(|e| game.is_chance(&next, e)) || game.to_act(&next) != Some(me) {
        return None;
    }
    let child = nodes
        .first()?
        .children
        .iter()
        .copied()
        .find(|&c| nodes[c as usize].action == Some(action))?;
    let copy = |n: &Node<G::Action>| Node {
        action: n.action,
        player: n.player,
        children: Vec::with_capacity(n.children.len()),
        visits: n.visits,
        available: n.available,
        value: n.value,
        squares: n.squares,
        slot: n.slot,
    };
    let mut out = vec![copy(&nodes[child as usize])];
    out[0].action = None;
    // Breadth first: (old index, new index).
    let mut queue = std::collections::VecDeque::from([(child, 0u32)]);
    while let Some((old, new)) = queue.pop_front() {
        for &c in &nodes[old as usize].children {
            if out.len() >= max_nodes {
                return None;
            }
            let id = out.len() as u32;
            out.push(copy(&nodes[c as usize]));
            out[new as usize].children.push(id);
            queue.push_back((c, id));
        }
    }
    Some(Reuse {
        expected: next,
        nodes: out,
    })
}

/// Searches for the side to act and returns its choice. Panics never: with no legal action
/// (a finished game) it returns `None`.
pub fn search<G: Knowledge>(
    game: &G,
    state: &G::State,
    params: &Params,
    seed: u64,
) -> Option<SearchResult<G::Action>> {
    search_reusing(game, state, params, seed, None)
}

/// [`search`], starting from the tree a previous decision kept in `reuse` when it applies to
/// `state`, and leaving there what the next decision may start from (or `None`). With an
/// iteration budget the result depends only on the seed and on what `reuse` held.
pub fn search_reusing<G: Knowledge>(
    game: &G,
    state: &G::State,
    params: &Params,
    seed: u64,
    mut reuse: Option<&mut Option<Reuse<G>>>,
) -> Option<SearchResult<G::Action>> {
    let kept = reuse
        .as_deref_mut()
        .and_then(Option::take)
        .filter(|r| r.applies_to(state));
    let me = game.to_act(state)?;
    let mut legal = Vec::new();
    crate::candidates(game, state, &mut legal);
    if legal.is_empty() {
        return None;
    }
    let threads = params.threads.max(1);
    let (cap, deadline) = match params.budget {
        Budget::Iterations(n) => (n, None),
        Budget::Time { limit, cap } => (cap, Some(Instant::now() + limit)),
    };
    let max_nodes = (cap as usize).saturating_mul(REUSE_NODES).max(1);
    if legal.len() == 1 {
        // A forced step: the kept tree follows it.
        if let (Some(slot), Some(r)) = (reuse, kept) {
            *slot = advance(game, state, me, &r.nodes, legal[0], max_nodes);
        }
        return Some(SearchResult {
            action: legal[0],
            iterations: 0,
            reused: 0,
            root: vec![(legal[0], 0, 0.5)],
        });
    }
    let per_thread = Some(cap.div_ceil(threads as u32).max(1));
    let grow_tree = |t: usize, start: Vec<Node<G::Action>>| {
        let seed = seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(t as u64);
        let limit = (per_thread, deadline);
        let shape = (params.exploration, params.playout_depth);
        grow(game, state, me, shape, limit, seed, start)
    };
    let root_stats = |nodes: &[Node<G::Action>]| -> RootStats<G::Action> {
        nodes[0]
            .children
            .iter()
            .filter_map(|&c| {
                let c = &nodes[c as usize];
                c.action.map(|a| (a, c.visits, c.value as f32))
            })
            .collect()
    };
    // One tree: it may start from the kept one, and what it grows may be kept. Root-parallel
    // trees start afresh and keep nothing.
    let mut whole: Option<Vec<Node<G::Action>>> = None;
    let mut reused = 0;
    let trees: Vec<(RootStats<G::Action>, u64)> = if threads == 1 {
        let start = kept
            .map(|r| {
                reused = r.visits();
                r.nodes
            })
            .unwrap_or_default();
        let (nodes, n) = grow_tree(0, start);
        let root = root_stats(&nodes);
        whole = Some(nodes);
        vec![(root, n)]
    } else {
        (0..threads)
            .into_par_iter()
            .map(|t| {
                let (nodes, n) = grow_tree(t, Vec::new());
                (root_stats(&nodes), n)
            })
            .collect()
    };
    // Sum the root statistics over the trees, in the order of the legal list.
    let mut root: Vec<(G::Action, u32, f32)> = legal.iter().map(|&a| (a, 0, 0.0)).collect();
    let mut iterations = 0;
    for (tree, n) in &trees {
        iterations += n;
        for &(a, visits, value) in tree {
            if let Some(entry) = root.iter_mut().find(|e| e.0 == a) {
                entry.1 += visits;
                entry.2 += value;
            }
        }
    }
    for e in root.iter_mut() {
        e.2 = if e.1 > 0 { e.2 / e.1 as f32 } else { 0.0 };
    }
    // Most visited; ties by mean value, then by the legal order (stable sort).
    root.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
    let action = root[0].0;
    if let Some(slot) = reuse {
        *slot = whole.and_then(|nodes| advance(game, state, me, &nodes, action, max_nodes));
    }
    Some(SearchResult {
        action,
        iterations,
        reused,
        root,
    })
}

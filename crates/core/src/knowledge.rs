//! Optional game knowledge for search bots. Every method has a neutral default, so a game
//! that knows nothing about good play still gets a working bot; a game that fills these in gets
//! a stronger one.

use crate::game::{Game, Side};

pub trait Knowledge: Game {
    /// An estimate in `[0, 1]` of `side`'s chance of winning from `state`, used to cut
    /// playouts short; `None` means "play on to the end".
    fn evaluate(&self, _state: &Self::State, _side: Side) -> Option<f32> {
        None
    }

    /// The relative weight of a legal action in playouts (all weights 0 means uniform).
    fn playout_weight(&self, _state: &Self::State, _action: Self::Action) -> u32 {
        1
    }

    /// Removes from `actions` (the legal actions in `state`, in order) those a bot need never
    /// consider there, such as cancelling a half-made choice or taking back a move just made,
    /// so that search spends its effort on real choices and cannot wander in circles. It must
    /// keep at least one action (the bots fall back to every legal action if it keeps none).
    /// Only bots use it: a player is always offered every legal action.
    fn prune(&self, _state: &Self::State, _actions: &mut Vec<Self::Action>) {}

    /// How many decisions a playout may make before `evaluate` is asked (when it gives
    /// estimates).
    fn playout_depth(&self) -> u32 {
        u32::MAX
    }

    /// How many playouts the greedy `easy` bot runs for each action it weighs, one per
    /// determinization, judging the action by their mean. Six by default; a game whose
    /// decisions come in small steps (a unit's move one region at a time), where six noisy
    /// playouts barely tell the steps apart, can ask for more (docs/performance.md, the
    /// ladder's step 8).
    fn greedy_samples(&self) -> u32 {
        6
    }
}

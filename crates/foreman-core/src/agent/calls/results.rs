//! [`Results`]: what each call of a response gives the model, in call order, kept until the
//! results go into history together (`batches.rs`), one per call whatever happened.

use super::job::NOT_RUN_CANCELLED;

/// One call's result for the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CallResult {
    pub text: String,
    pub is_error: bool,
}

/// What one call gives the model: its place among the results.
#[derive(Debug, Default)]
pub(crate) struct ResultSlot {
    /// `None` until it ended (a call never ended reads as not run).
    result: Option<CallResult>,
    /// The path its facts name, for the nested rule files it brings.
    pub path: Option<String>,
    /// What the `PreToolUse` hooks told the model about it.
    pub hook_note: Option<String>,
}

impl ResultSlot {
    /// Its result, or the one of a call the task stopped before it ran.
    pub(crate) fn into_result(self) -> CallResult {
        self.result.unwrap_or_else(|| CallResult {
            text: NOT_RUN_CANCELLED.to_owned(),
            is_error: true,
        })
    }
}

/// The results of a response's calls, by the calls' places.
#[derive(Debug)]
pub(crate) struct Results {
    slots: Vec<ResultSlot>,
}

impl Results {
    /// Room for `calls` results, none in yet.
    pub(crate) fn new(calls: usize) -> Self {
        Self {
            slots: std::iter::repeat_with(ResultSlot::default)
                .take(calls)
                .collect(),
        }
    }

    /// The `index`-th call's result is `text`, an error or not.
    pub(crate) fn set(&mut self, index: usize, text: String, is_error: bool) {
        if let Some(call) = self.slots.get_mut(index) {
            call.result = Some(CallResult { text, is_error });
        }
    }

    /// The `index`-th call failed or did not run: `text` says why.
    pub(crate) fn error(&mut self, index: usize, text: String) {
        self.set(index, text, true);
    }

    /// The `index`-th call's result, to add to it.
    pub(crate) fn result_mut(&mut self, index: usize) -> Option<&mut CallResult> {
        self.slots.get_mut(index)?.result.as_mut()
    }

    /// What else the `index`-th call gives the model besides its result.
    pub(crate) fn slot_mut(&mut self, index: usize) -> Option<&mut ResultSlot> {
        self.slots.get_mut(index)
    }

    /// Every call's, in call order.
    pub(crate) fn into_slots(self) -> impl Iterator<Item = ResultSlot> {
        self.slots.into_iter()
    }
}

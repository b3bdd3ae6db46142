//! [`EventSink`]: numbers events and sends them to the front end.

use tokio::sync::mpsc::UnboundedSender;

use crate::protocol::{Event, EventMsg};

/// Sends events with a per-session `seq` (1, 2, 3...). A closed receiver is not an error: the
/// session goes on (and persists) without a front end.
///
/// While a sub-agent runs, its `new_task` call is the sink's parent: every event then carries it
/// as `parent_call_id`, on the same stream and in the same `seq`.
#[derive(Debug)]
pub struct EventSink {
    tx: UnboundedSender<Event>,
    seq: u64,
    parent: Option<String>,
}

impl EventSink {
    pub fn new(tx: UnboundedSender<Event>) -> Self {
        Self {
            tx,
            seq: 0,
            parent: None,
        }
    }

    /// Sends `msg` as the next event, nested under the current parent call if any.
    pub fn emit(&mut self, msg: EventMsg) {
        let parent = self.parent.clone();
        self.send(parent, msg);
    }

    /// Sends `msg` as an event of the session itself (a snapshot, a mode change), never nested.
    pub fn emit_session(&mut self, msg: EventMsg) {
        self.send(None, msg);
    }

    fn send(&mut self, parent_call_id: Option<String>, msg: EventMsg) {
        self.seq += 1;
        let _ = self.tx.send(Event {
            seq: self.seq,
            parent_call_id,
            msg,
        });
    }

    /// Nests the events that follow under `parent` (`None`: the session's own); returns the
    /// parent it replaces.
    pub fn set_parent(&mut self, parent: Option<String>) -> Option<String> {
        std::mem::replace(&mut self.parent, parent)
    }

    /// The call the events are nested under now.
    pub fn parent(&self) -> Option<&str> {
        self.parent.as_deref()
    }

    /// The seq of the last event sent.
    pub fn last_seq(&self) -> u64 {
        self.seq
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seq_increases_and_closed_receivers_are_ignored() {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let mut sink = EventSink::new(tx);
        sink.emit(EventMsg::TaskStarted);
        sink.emit(EventMsg::Resumed);
        assert_eq!(rx.try_recv().unwrap().seq, 1);
        assert_eq!(rx.try_recv().unwrap().seq, 2);
        drop(rx);
        sink.emit(EventMsg::Resumed);
        assert_eq!(sink.last_seq(), 3);
    }

    #[test]
    fn a_parent_nests_events_but_not_session_events_and_seq_goes_on() {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let mut sink = EventSink::new(tx);
        sink.emit(EventMsg::TaskStarted);
        assert_eq!(sink.set_parent(Some("t1".into())), None);
        sink.emit(EventMsg::Resumed);
        sink.emit_session(EventMsg::Resumed);
        assert_eq!(sink.set_parent(None).as_deref(), Some("t1"));
        sink.emit(EventMsg::Resumed);
        let events: Vec<Event> = std::iter::from_fn(|| rx.try_recv().ok()).collect();
        let parents: Vec<(u64, Option<&str>)> = events
            .iter()
            .map(|e| (e.seq, e.parent_call_id.as_deref()))
            .collect();
        assert_eq!(parents, [(1, None), (2, Some("t1")), (3, None), (4, None)]);
    }
}

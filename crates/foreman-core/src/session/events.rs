//! [`EventSink`]: numbers events and sends them to the front end.

use tokio::sync::mpsc::UnboundedSender;

use crate::protocol::{Event, EventMsg};

/// Sends events with a per-session `seq` (1, 2, 3...). A closed receiver is not an error: the
/// session goes on (and persists) without a front end.
#[derive(Debug)]
pub struct EventSink {
    tx: UnboundedSender<Event>,
    seq: u64,
}

impl EventSink {
    pub fn new(tx: UnboundedSender<Event>) -> Self {
        Self { tx, seq: 0 }
    }

    /// Sends `msg` as the next event.
    pub fn emit(&mut self, msg: EventMsg) {
        self.seq += 1;
        let _ = self.tx.send(Event { seq: self.seq, msg });
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
}

-- The lines a reopened conversation shows where the live one did and the history sent to the
-- model does not hold: why a task ended (0007's task ends) and where the context was compacted.
-- Each follows the message with sequence number `after_seq` (a compaction that shifts the
-- messages shifts these too); `body` is the protocol's TranscriptItem as JSON.
ALTER TABLE task_ends RENAME TO notices;
ALTER TABLE notices RENAME COLUMN reason TO body;
UPDATE notices SET body = json_object('kind', 'task_ended', 'reason', json(body))
WHERE json_valid(body);
DROP INDEX task_ends_by_session;
CREATE INDEX notices_by_session ON notices (session_id, after_seq);

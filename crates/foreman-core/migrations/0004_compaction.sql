-- Compaction: messages replaced by a summary stay stored (for the transcript) but are no longer
-- part of the history sent to the model. NULL: live; otherwise when it was compacted (unix ms).
ALTER TABLE messages ADD COLUMN compacted_at INTEGER;

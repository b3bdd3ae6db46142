-- When part of a kept change was last undone (unix ms; NULL when never), so a branch made from
-- a message before that moment can tell its model, as the source's model was told later.
ALTER TABLE checkpoints ADD COLUMN partly_at INTEGER;

// Settings › Checkpoints: what checkpoints keep, so a rewind can bring it back: files up to a size,
// and the small files git ignores (`.env.local`, local configuration) outside the folders builds and
// package managers fill. A command that would delete what no checkpoint keeps asks first.
import type { AppSettings } from "../../protocol/AppSettings";

interface Props {
  draft: AppSettings;
  onDraft(next: AppSettings): void;
}

/** `node_modules, target` → `["node_modules", "target"]`: names only, each once. */
export function folderNames(text: string): string[] {
  const names = text
    .split(/[,\n]/)
    .map((name) => name.trim().replace(/\/+$/, ""))
    .filter((name) => name.length > 0 && !name.includes("/"));
  return [...new Set(names)];
}

export function CheckpointSection({ draft, onDraft }: Props) {
  return (
    <section className="panel" data-testid="checkpoint-settings">
      <h2>Checkpoints</h2>
      <label className="field" title="Files larger than this are left out of checkpoints, so rewinding cannot restore them">
        <span>Largest file kept (MiB)</span>
        <input
          type="number"
          min={1}
          value={draft.checkpoint_max_file_mib}
          onChange={(e) => onDraft({ ...draft, checkpoint_max_file_mib: Math.max(1, Number(e.target.value) || 1) })}
        />
      </label>
      <label className="field check">
        <input
          type="checkbox"
          data-testid="checkpoint-keep-ignored"
          checked={draft.checkpoint_keep_ignored}
          onChange={(e) => onDraft({ ...draft, checkpoint_keep_ignored: e.target.checked })}
        />
        <span>Keep files git ignores, up to 1 MiB each (.env.local, local configuration)</span>
      </label>
      <label className="field" title="Folders that builds and package managers fill: their ignored files are never kept">
        <span>Folders never kept</span>
        <input
          data-testid="checkpoint-excluded"
          disabled={!draft.checkpoint_keep_ignored}
          defaultValue={draft.checkpoint_excluded_folders.join(", ")}
          onBlur={(e) => onDraft({ ...draft, checkpoint_excluded_folders: folderNames(e.target.value) })}
        />
      </label>
      <p className="muted small">
        A command that would delete what no checkpoint keeps (a <code>git clean -x</code> over <code>node_modules/</code>,
        an <code>rm -r</code> of a large file) asks first, in every mode but “Run everything”.
      </p>
    </section>
  );
}

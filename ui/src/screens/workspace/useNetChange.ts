// What a file's changes amount to now, in one diff (a stored session's only: the engine reads
// the checkpoints from the store). Only the newest request's answer is shown; another
// conversation closes it.
import { useCallback, useEffect, useRef, useState } from "react";
import type { Backend } from "../../backend";
import { errorMessage } from "../../backend";
import type { NetChangeView } from "../../components/NetChangeDialog";
import type { FileChanges } from "../../session/changes";

export function useNetChange(backend: Backend, current: string | null) {
  const [net, setNet] = useState<NetChangeView | null>(null);
  const request = useRef(0);
  const show = useCallback(
    (file: FileChanges) => {
      if (!current) return;
      const asked = ++request.current;
      const base = { path: file.path, callIds: file.callIds };
      setNet({ ...base, state: "loading" });
      backend.fileNetChange(current, file.callIds).then(
        (change) => asked === request.current && setNet({ ...base, state: "ready", change }),
        (e) => asked === request.current && setNet({ ...base, state: "failed", error: errorMessage(e) }),
      );
    },
    [backend, current],
  );
  const close = useCallback(() => {
    request.current += 1;
    setNet(null);
  }, []);
  useEffect(close, [current, close]);
  return { net, show, close };
}

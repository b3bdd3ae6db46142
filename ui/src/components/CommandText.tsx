// A command line shown whole, in a narrow column: it wraps at its spaces or after a slash of a
// path in it, never in the middle of a name.
import { Fragment } from "react";
import { pathParts } from "./PathText";

export function CommandText({ command }: { command: string }) {
  return (
    <code className="command-text">
      {pathParts(command).map((part, i) => (
        <Fragment key={i}>
          {part}
          <wbr />
        </Fragment>
      ))}
    </code>
  );
}

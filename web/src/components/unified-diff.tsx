import { useMemo } from 'react';
import { Diff, Hunk, parseDiff } from 'react-diff-view';
import 'react-diff-view/style/index.css';

/** A unified diff as the server wrote it (`--- a/…`, `+++ b/…`, hunks), rendered by react-diff-view. */
export function UnifiedDiff({ text, label }: { text: string; label: string }) {
  const files = useMemo(() => (text ? parseDiff(`diff --git a/x b/x\n${text}`) : []), [text]);
  return (
    <div className="diff" role="group" aria-label={label}>
      {files.map((file, i) => (
        <Diff key={i} viewType="unified" diffType={file.type} hunks={file.hunks}>
          {(hunks) => hunks.map((hunk) => <Hunk key={hunk.content} hunk={hunk} />)}
        </Diff>
      ))}
    </div>
  );
}

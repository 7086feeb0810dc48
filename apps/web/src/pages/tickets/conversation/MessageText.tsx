import { Fragment, useMemo } from 'react';
import Link from '@mui/material/Link';
import { richText } from './richText';

/** A message body with its marks and links, line breaks kept. */
export function MessageText({ body }: { body: string }) {
  const runs = useMemo(() => richText(body), [body]);
  return (
    <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      {runs.map((r, i) => {
        if (r.href) {
          return (
            <Link key={i} href={r.href} target="_blank" rel="noopener noreferrer">
              {r.text}
            </Link>
          );
        }
        let node = <Fragment>{r.text}</Fragment>;
        if (r.bold) node = <strong>{node}</strong>;
        if (r.italic) node = <em>{node}</em>;
        if (r.strike) node = <s>{node}</s>;
        return <Fragment key={i}>{node}</Fragment>;
      })}
    </span>
  );
}

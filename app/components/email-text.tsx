import { Fragment } from "react";

/**
 * An e-mail address that wraps at sensible points (issue 38): a line break opportunity (<wbr>)
 * before '@' and each '.', so a narrow screen breaks 'rina.wulandari' / '@iconplus.co.id' rather
 * than before the last letter; the surrounding `overflow-wrap: anywhere` remains the last resort.
 */
export function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?=[@.])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}

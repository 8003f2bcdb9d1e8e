import { linkSegments } from "~/lib/linkify";

/** Text with its http(s) links clickable (opened in a new tab); everything else is escaped text. */
export function LinkifiedText({ text }: { text: string }) {
  return (
    <>
      {linkSegments(text).map((segment, index) =>
        segment.type === "link" ? (
          <a key={index} href={segment.href} target="_blank" rel="noopener noreferrer">
            {segment.text}
          </a>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </>
  );
}

import { useCallback } from "react";

/**
 * An image drawn over its container's grey placeholder. Its width and height reserve the space (no
 * layout shift). The empty alt (the text next to it names the product) means a failed image draws
 * nothing, so the grey stays, even before or without JavaScript; with JavaScript a failed image is
 * also hidden explicitly, including one that failed before hydration.
 */
export function FadeInImage({
  src,
  width,
  height,
  eager = false,
  priority = false,
  alt = "",
  className,
}: {
  src: string;
  width: number;
  height: number;
  /** On screen at once: load it now, not when it scrolls near. */
  eager?: boolean;
  /** The largest thing on screen: fetch it before the other images. */
  priority?: boolean;
  alt?: string;
  className?: string;
}) {
  const hideIfBroken = useCallback((img: HTMLImageElement | null) => {
    if (img && img.complete && img.naturalWidth === 0) img.style.visibility = "hidden";
  }, []);
  return (
    <img
      ref={hideIfBroken}
      src={src}
      alt={alt}
      width={width}
      height={height}
      className={className}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      fetchPriority={priority ? "high" : undefined}
      onError={(event) => {
        event.currentTarget.style.visibility = "hidden";
      }}
    />
  );
}

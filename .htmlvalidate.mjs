// html-validate for the pages the server renders (issue 34): the e2e suites validate every document
// they receive (tests/e2e/helpers/html-validation.ts). Each change to the presets says why.
export default {
  // recommended: valid and accessible HTML; document: the rules that need a whole page (heading
  // levels in order, a doctype, references that point somewhere).
  extends: ["html-validate:recommended", "html-validate:document"],
  // HTML requires `rel` on a <link> outside microdata (the W3C checker: "A link element must have a
  // rel or itemprop attribute"); html-validate's own element table does not, so the held module
  // preloads once went out as links without `rel` unseen (issue 34). Required here, the
  // element-required-attributes rule reports it.
  elements: ["html5", { link: { attributes: { rel: { required: true } } } }],
  rules: {
    // React's server renderer writes every void element self-closed (`<meta …/>`, `<img …/>`): one
    // style, held throughout, instead of the preset's "omit" which React cannot write.
    "void-style": ["error", { style: "selfclose" }],
    // React writes a few attribute names in its own camelCase (`charSet`, `fetchPriority`); HTML
    // attribute names are case-insensitive, so the browser reads them the same.
    "attr-case": ["error", { style: ["lowercase", "camelcase"] }],
    // React writes a true boolean attribute as `name=""` (`disabled=""`, `novalidate=""`): one style,
    // held throughout, instead of the preset's "omit" which React cannot write.
    "attribute-boolean-style": ["error", { style: "empty" }],
    // The same for the attributes whose empty value is one of their states (`hidden=""`, as React
    // writes `hidden`).
    "attribute-empty-style": ["error", { style: "empty" }],
    // React's useId gives ids like `_R_1kj5_`: valid HTML ids (no spaces), which the strict option
    // (must start with a letter) refuses.
    "valid-id": ["error", { relaxed: true }],
    // One name sent by several controls by design: the filter's `categories` checkboxes, and the
    // checkout's KTP photo, one file input per source (camera, gallery) under the one name the server
    // reads a single file from; the rule's shared types cannot name file inputs.
    "form-dup-name": "off",
    // Sizes known only while rendering (a sheet's height, a chart's bars) go through React's style
    // prop; everything else is in the stylesheet.
    "no-inline-style": "off",
    // Integrity hashes guard files served from another host; every script and style is the
    // store's own, from its own origin (an external one would still need them).
    "require-sri": ["error", { target: "crossorigin" }],
  },
};

// The "English | 中文" switch keeps the reader's section: the link to the other
// language gets the #anchor of the URL, or else that of the innermost section
// the page's table of contents marks as being read. Both sites share the labels.
document.addEventListener("click", (event) => {
  const link = event.target.closest("a.language-link");
  if (!link) return;
  const read = document.querySelectorAll(".toc-tree li.scroll-current > a");
  const innermost = read.length ? read[read.length - 1].hash : "";
  link.hash = window.location.hash || innermost;
});

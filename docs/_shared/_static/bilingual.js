// The "English | 中文" switch keeps the reader's section: the link to the other
// language gets the #anchor of the URL, or else that of the section the
// page's table of contents marks as being read. Both sites share the labels.
document.addEventListener("click", (event) => {
  const link = event.target.closest("a.language-link");
  if (!link) return;
  const current = document.querySelector(".toc-tree a.scroll-current");
  link.hash = window.location.hash || (current ? current.hash : "");
});

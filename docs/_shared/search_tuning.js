// Search tuning of both sites (html_search_scorer in conf_common.py: Sphinx puts
// this in language_data.js, after its searchtools.js defined Search and Scorer).

// Every API name starts with "pylayer.", so a search for "PyLayer" matched all
// of them (428 results). An API name matches when the words are in the name
// after the package's own prefix ("autograd.PyLayer"), or it is the package.
const _objectSearch = Search.performObjectSearch;
Search.performObjectSearch = (term, terms) => _objectSearch(term, terms).filter(
  ([, fullname]) => {
    const name = fullname.toLowerCase();
    return name === term || name.replace(/^pylayer\./, "").includes(term);
  });

// A page whose own title holds every word of the query ranks above pages that
// only mention them: "custom operator" puts the guide "Custom operators in
// Python" first, not the contributor page with a section on them.
Scorer.score = (result) => {
  const [docName, , , , score] = result;
  const query = new URLSearchParams(window.location.search).get("q") || "";
  const words = splitQuery(query.toLowerCase()).filter((word) => word.length > 1);
  const titles = Search._index.titles;
  const title = (titles[Search._index.docnames.indexOf(docName)] || "").toLowerCase();
  const titled = words.length > 0 && words.every((word) => title.includes(word));
  return titled ? score + Scorer.term : score;
};

// An API entry whose anchor holds no text (a module's target) has no summary:
// Sphinx then appended null to the result and logged a TypeError. Such an entry
// gets the page's summary instead; anchors with dots ("#module-pylayer.nn")
// are escaped so that the section is found.
const _summary = Search.makeSearchSummary;
Search.makeSearchSummary = (html, keywords, anchor) =>
  _summary(html, keywords, anchor ? "#" + CSS.escape(anchor.slice(1)) : anchor)
  || _summary(html, keywords, "") || document.createElement("p");

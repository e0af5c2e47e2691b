// Resources hub: filters the entries already in the page by ?category= and ?search=, keeping the URL in
// step so a filtered view can be shared, bookmarked and walked with back/forward. Without this script the
// page still lists every entry. Values from the URL only ever reach the page through .value and
// .textContent, never as HTML.

const form = document.getElementById('hub-filters');
const select = document.getElementById('hub-category');
const input = document.getElementById('hub-search');
const count = document.getElementById('hub-count');
const note = document.getElementById('hub-note');
const empty = document.getElementById('hub-empty');
const clear = document.getElementById('hub-clear');

// Each topic is its own element, so texts are joined with spaces: words never run across two fields.
const SEARCHED_FIELDS = '.card-title, .excerpt, .topics li, .author';
const entries = [...document.querySelectorAll('#results > .card')].map((card) => ({
  card,
  category: card.dataset.category,
  text: [...card.querySelectorAll(SEARCHED_FIELDS)]
    .map((field) => field.textContent)
    .join(' ')
    .toLowerCase(),
}));
const categories = new Set([...select.options].map((option) => option.value).filter(Boolean));

/** The filter the URL asks for; an unknown category is reported back rather than guessed at. */
function readUrl() {
  const params = new URLSearchParams(window.location.search);
  const asked = (params.get('category') ?? '').trim();
  const category = asked.toLowerCase();
  const known = categories.has(category);
  return { category: known ? category : '', unknown: asked && !known ? asked : '', search: params.get('search') ?? '' };
}

/** `history.pushState` for a deliberate choice (a category), `replaceState` while typing, so back skips keystrokes. */
function writeUrl(method) {
  const params = new URLSearchParams(window.location.search);
  const search = input.value.trim();
  if (select.value) params.set('category', select.value);
  else params.delete('category');
  if (search) params.set('search', search);
  else params.delete('search');
  const query = params.toString();
  const url = `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`;
  if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) history[method](null, '', url);
}

const plural = (n) => `${n} resource${n === 1 ? '' : 's'}`;

function applyFilters() {
  const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
  const category = select.value;
  let shown = 0;
  for (const entry of entries) {
    const visible = (!category || entry.category === category) && words.every((word) => entry.text.includes(word));
    entry.card.hidden = !visible;
    if (visible) shown += 1;
  }
  count.textContent = shown === entries.length ? `Showing all ${plural(shown)}` : `Showing ${shown} of ${plural(entries.length)}`;
  empty.hidden = shown !== 0;
}

function showState(state) {
  select.value = state.category;
  input.value = state.search;
  note.hidden = !state.unknown;
  note.textContent = state.unknown ? `There is no category "${state.unknown}", so all categories are shown.` : '';
  applyFilters();
}

select.addEventListener('change', () => {
  note.hidden = true;
  applyFilters();
  writeUrl('pushState');
});
input.addEventListener('input', () => {
  // Any edit rewrites the URL without the unknown category, so the note would no longer be true.
  note.hidden = true;
  applyFilters();
  writeUrl('replaceState');
});
clear.addEventListener('click', () => {
  showState({ category: '', search: '', unknown: '' });
  writeUrl('pushState');
  // The button hides itself, so focus moves somewhere useful instead of being lost.
  input.focus();
});
// Filtering is live; Enter in the search box must not reload the page.
form.addEventListener('submit', (event) => event.preventDefault());
window.addEventListener('popstate', () => showState(readUrl()));

showState(readUrl());

package knowledge

// Source is a cited page. URL is empty when the sources give none (the
// title then says where the material was published).
type Source struct {
	ID    string `json:"id,omitempty"` // "source:blog-part2"
	Title string `json:"title"`
	URL   string `json:"url"`
}

// sourceFile is the JSON shape of data/sources.json.
type sourceFile struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	URL   string `json:"url"`
	Note  string `json:"note,omitempty"`
}

package world

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/firmoapi/firmo/shared/company"
)

// TeamFiles are the names ExportTeamSites writes: two CSV files and a directory of HTML
// pages, one file per page URL.
var TeamFiles = []string{"teampages.csv", "teampeople.csv", "teampages/"}

// teamPagesHeader and teamPeopleHeader are the CSV columns ExportTeamSites writes.
var (
	teamPagesHeader  = []string{"domain", "url", "language", "layout", "stale", "file"}
	teamPeopleHeader = []string{"domain", "page_url", "name", "title", "department", "seniority", "email", "linkedin", "phone", "left_company", "stale", "role_address"}
)

// teamPage is one exported people page of a company.
type teamPage struct {
	page   company.Page
	layout string // see TeamSite.Layouts; "list" for the Company's own team page
	stale  bool   // an archived page: it may list people who have left
}

// teamPages returns every page of company i that lists people or role mailboxes: the
// team page of Company.Pages and the pages of TeamSite, in that order.
func (w *World) teamPages(i int, c Company, ts TeamSite) []teamPage {
	s := w.skel[i]
	var out []teamPage
	for _, p := range c.Pages {
		if p.StatusCode == 200 && strings.HasSuffix(p.URL, lexicons()[s.lang].one("team.path")) {
			out = append(out, teamPage{page: p, layout: "list"})
		}
	}
	archive := teamSiteText[s.lang].archivePath
	for k, p := range ts.Pages {
		out = append(out, teamPage{page: p, layout: ts.Layouts[k], stale: strings.HasSuffix(p.URL, archive)})
	}
	return out
}

// pageFile is where a page URL is written under dir: teampages/HOST/PATH.html. Only the
// plain host and path characters the world generates are accepted, so no URL can write
// outside teampages/.
func pageFile(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", fmt.Errorf("team page %q: %w", rawURL, err)
	}
	segs := append([]string{u.Host}, strings.Split(strings.Trim(u.Path, "/"), "/")...)
	for _, seg := range segs {
		if seg == "" || seg == "." || seg == ".." || strings.IndexFunc(seg, func(r rune) bool {
			return (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' && r != '.' && r != '_'
		}) >= 0 {
			return "", fmt.Errorf("team page %q: unexpected URL for a file name", rawURL)
		}
	}
	return "teampages/" + strings.Join(segs, "/") + ".html", nil
}

// ExportTeamSites writes the world's people pages and the people they list into dir,
// next to what Export writes (and touching none of Export's files):
//
//   - teampages/HOST/PATH.html: every page of a company that lists people or role
//     mailboxes (the team page, the leadership, contact and archived team pages of
//     TeamSite), byte for byte as the world serves it;
//   - teampages.csv: one row per page: domain, url, language (ISO 639-1), layout (how
//     the page marks people up: jsonld, microdata, hcard, cards, table, dl, lines, list
//     or contact), stale (an archived page that may list people who left) and file (the
//     path under dir);
//   - teampeople.csv: one row per person and page that lists them, from TeamSite.Listed,
//     the truth contact generation is graded against: domain, page_url, name, title,
//     department, seniority (the world's labels), email (only when that page shows it),
//     linkedin and phone (always empty: the world's pages show neither for a person),
//     left_company, stale (the page is archived), role_address (false); then one row
//     per role mailbox of TeamSite.RoleAddresses with role_address true, the address in
//     email and no name.
//
// The same options give byte-identical files. onCompany, when set, is called after each
// company.
func (w *World) ExportTeamSites(dir string, onCompany func()) error {
	if err := os.MkdirAll(filepath.Join(dir, "teampages"), 0o755); err != nil {
		return err
	}
	index, err := newCSVFile(filepath.Join(dir, "teampages.csv"), teamPagesHeader)
	if err != nil {
		return err
	}
	defer index.f.Close()
	people, err := newCSVFile(filepath.Join(dir, "teampeople.csv"), teamPeopleHeader)
	if err != nil {
		return err
	}
	defer people.f.Close()
	for i := 0; i < w.Len(); i++ {
		c := w.Company(i)
		ts := w.TeamSite(i, c)
		lang := w.skel[i].lang
		pages := w.teamPages(i, c, ts)
		byURL := make(map[string]teamPage, len(pages))
		for _, p := range pages {
			name, err := pageFile(p.page.URL)
			if err != nil {
				return err
			}
			path := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(path, []byte(p.page.HTML), 0o644); err != nil {
				return err
			}
			byURL[p.page.URL] = p
			index.w.Write([]string{c.Domain, p.page.URL, lang, p.layout, strconv.FormatBool(p.stale), name})
		}
		for _, l := range ts.Listed {
			for _, u := range l.Pages {
				p, ok := byURL[u]
				if !ok {
					return fmt.Errorf("export team sites: %s lists %s on %s, which is not a people page", c.Domain, l.Name, u)
				}
				email := ""
				if l.Email != "" && strings.Contains(p.page.HTML, l.Email) {
					email = l.Email
				}
				people.w.Write([]string{c.Domain, u, l.Name, l.Title, l.Department, l.Seniority, email, "", "",
					strconv.FormatBool(l.Left), strconv.FormatBool(p.stale), "false"})
			}
		}
		for _, addr := range ts.RoleAddresses {
			u := ""
			for _, p := range pages {
				if p.layout == "contact" && strings.Contains(p.page.HTML, addr) {
					u = p.page.URL
					break
				}
			}
			people.w.Write([]string{c.Domain, u, "", "", "", "", addr, "", "", "false", "false", "true"})
		}
		if onCompany != nil {
			onCompany()
		}
	}
	return errors.Join(index.close(), people.close())
}

// csvFile is a buffered CSV file being written.
type csvFile struct {
	f   *os.File
	buf *bufio.Writer
	w   *csv.Writer
}

func newCSVFile(path string, header []string) (*csvFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	buf := bufio.NewWriterSize(f, 1<<16)
	cf := &csvFile{f: f, buf: buf, w: csv.NewWriter(buf)}
	cf.w.Write(header)
	return cf, nil
}

// close flushes and closes the file, returning the first write error (csv.Writer keeps
// it until Flush).
func (cf *csvFile) close() error {
	cf.w.Flush()
	if err := cf.w.Error(); err != nil {
		return err
	}
	if err := cf.buf.Flush(); err != nil {
		return err
	}
	return cf.f.Close()
}

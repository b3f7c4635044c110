package world

import (
	"encoding/json"
	"sort"
	"strings"
)

// streamMail is the random stream of a company's mail server: whether it is catch-all
// or greylists, and which listed addresses belong to people who left. It is drawn after
// everything else and touches no other stream, so the world's companies, pages and
// contacts are the same with or without it.
const streamMail = 60

// MailKind is how a company's mail server answers recipients.
type MailKind string

const (
	// MailStrict accepts exactly the company's mailboxes and rejects any other
	// recipient with 550 5.1.1.
	MailStrict MailKind = "strict"
	// MailCatchAll accepts any recipient of the domain.
	MailCatchAll MailKind = "catch_all"
	// MailGreylist answers 451 4.7.1 to the first attempt of each (client, sender,
	// recipient) and then answers as MailStrict.
	MailGreylist MailKind = "greylist"
	// MailNone is a domain with no mail host: NXDOMAIN, null MX, no MX records, or a
	// broken zone, as its MX answer (Company.DNS) says.
	MailNone MailKind = "none"
)

// RoleLocals are the role addresses every mail-receiving company of the world has.
var RoleLocals = []string{"info", "sales", "postmaster"}

// Mailbox is one person's address at a company.
type Mailbox struct {
	PersonaID int64  // the contact's persona id; 0 for team-page people who are no contact
	Name      string // "First Last"
	Local     string // the local part the company's pattern gives the person
	Listed    bool   // the contact row (or team page) shows the address
	Departed  bool   // the person left: the address is listed but its mailbox is closed
}

// Mail is the truth of a company's mail: what its mail server accepts.
type Mail struct {
	Domain string
	Kind   MailKind
	// Template is the company's address pattern in the placeholders of package
	// emailpattern ("{first}.{last}", "{f}{last}", ...), the pattern its listed
	// addresses follow when it has any and otherwise one drawn from the mail stream.
	Template string
	// Inferable is true when the template comes from listed addresses (some contact or
	// team-page person shows one).
	Inferable bool
	People    []Mailbox
}

// Accepts reports whether the company's mail server accepts local as a recipient
// (greylisting aside): any local part on a catch-all domain, the mailbox of a person
// who has not left (an address two people share stays open while one of them is
// there), and the role addresses; nothing on a domain without mail.
func (m Mail) Accepts(local string) bool {
	local = strings.ToLower(local)
	switch m.Kind {
	case MailNone:
		return false
	case MailCatchAll:
		return true
	}
	for _, r := range RoleLocals {
		if r == local {
			return true
		}
	}
	for _, p := range m.People { // two people may share an address ({last} patterns)
		if p.Local == local && !p.Departed {
			return true
		}
	}
	return false
}

// worldTemplates maps the world's own pattern notation to emailpattern's.
var worldTemplates = map[string]string{
	"{f}.{l}": "{first}.{last}",
	"{i}{l}":  "{f}{last}",
	"{f}":     "{first}",
	"{f}{l}":  "{first}{last}",
	"{i}.{l}": "{f}.{last}",
	"{l}":     "{last}",
}

// Mail generates the mail truth of company i: its kind (from the MX answer and the
// mail stream: of the companies with a mail host, about one in ten is catch-all and one
// in ten greylists), its pattern, and a mailbox for every person of its team page and
// contacts. About one listed address in twelve belongs to someone who left.
func (w *World) Mail(i int) Mail {
	return w.mailOf(i, w.Company(i))
}

func (w *World) mailOf(i int, c Company) Mail {
	r := w.rng(i, streamMail)
	m := Mail{Domain: c.Domain, Kind: MailStrict}
	hasHost := false
	for _, mx := range c.DNS.MX {
		if mx.Host != "" {
			hasHost = true
		}
	}
	switch roll := r.IntN(10); {
	case c.DNS.NXDomain || c.DNS.ServFail || !hasHost:
		m.Kind = MailNone
	case roll == 0:
		m.Kind = MailCatchAll
	case roll == 1:
		m.Kind = MailGreylist
	}
	pattern := teamPattern(c.Truth.Team)
	rows := w.ContactRows(i, c)
	if pattern == "" {
		for _, row := range rows {
			if row.Email != "" {
				first, last, _ := strings.Cut(row.Name, " ")
				local, _, _ := strings.Cut(row.Email, "@")
				for _, pat := range emailPatterns {
					if localPart(pat, first, last) == local {
						pattern = pat
						break
					}
				}
			}
			if pattern != "" {
				break
			}
		}
	}
	m.Inferable = pattern != ""
	if pattern == "" {
		pattern = pick(r, emailPatterns)
	}
	m.Template = worldTemplates[pattern]
	seen := map[string]bool{}
	add := func(id int64, name, email string) {
		if seen[name] {
			return
		}
		seen[name] = true
		first, last, _ := strings.Cut(name, " ")
		mb := Mailbox{PersonaID: id, Name: name, Local: localPart(pattern, first, last), Listed: email != ""}
		if mb.Listed {
			mb.Local, _, _ = strings.Cut(strings.ToLower(email), "@")
			mb.Departed = r.IntN(12) == 0
		}
		m.People = append(m.People, mb)
	}
	for _, row := range rows {
		var id int64
		if err := json.Unmarshal(row.PersonaID, &id); err != nil {
			continue
		}
		add(id, row.Name, row.Email)
	}
	for _, p := range c.Truth.Team {
		add(0, p.Name, p.Email)
	}
	return m
}

// MailHosts lists the MX host names of every domain of the world that has mail, sorted
// and without duplicates: what a local mail server for the world answers as.
func (w *World) MailHosts() []string {
	set := map[string]bool{}
	for i, s := range w.skel {
		a, _ := mxRecords(w.rng(i, streamDNS), s)
		for _, mx := range a.MX {
			if mx.Host != "" {
				set[strings.ToLower(mx.Host)] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for h := range set {
		out = append(out, h)
	}
	sort.Strings(out)
	return out
}

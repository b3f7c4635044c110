package crmfake

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// records are one fake account's companies and contacts. websites[i] is company i's
// website as the user typed it (possibly empty); contacts[j] are contact j's email
// addresses (Pipedrive persons may have two; the others one, possibly empty).
type records struct {
	websites []string
	contacts [][]string
}

var (
	nameParts = []string{"acme", "nova", "blue", "peak", "river", "stone", "bright", "iron", "cloud",
		"delta", "lumen", "pixel", "north", "cedar", "quant", "orbit", "vertex", "harbor", "maple", "zen"}
	tlds       = []string{"com", "com", "com", "io", "co", "net", "de", "co.uk", "fr", "ai"}
	firstNames = []string{"anna", "ben", "chloe", "david", "emma", "felix", "grace", "hugo", "ines", "jon",
		"kira", "liam", "maya", "noah", "olga", "paul", "rosa", "sam", "tara", "umar"}
	lastNames = []string{"smith", "jones", "garcia", "muller", "rossi", "dubois", "kim", "silva", "novak",
		"berg", "costa", "ivanova", "okafor", "larsen", "moreau", "tanaka", "weber", "haas", "lopez", "ward"}
)

// newRecords generates the account's records from opts.Seed: the same options give
// the same records, in the same order, on every run.
func newRecords(opts Options) *records {
	rec := &records{}
	if opts.Websites != nil {
		rec.websites = append([]string(nil), opts.Websites...)
	}
	if opts.Emails != nil {
		for _, e := range opts.Emails {
			rec.contacts = append(rec.contacts, []string{e})
		}
	}
	r := rand.New(rand.NewPCG(opts.Seed, 0x63726d66616b65)) // "crmfake"
	var hosts []string
	if opts.Websites == nil {
		rec.websites = make([]string, opts.Companies)
		hosts = make([]string, opts.Companies)
		for i := range rec.websites {
			hosts[i] = companyHost(r, i, hosts)
			rec.websites[i] = messyWebsite(r, hosts[i])
		}
	}
	if opts.Emails == nil {
		rec.contacts = make([][]string, opts.Contacts)
		for j := range rec.contacts {
			rec.contacts[j] = contactEmails(r, j, hosts, opts.Provider == Pipedrive)
		}
	}
	return rec
}

// companyHost names company i; one company in fifty shares an earlier one's host,
// as duplicate records do in a real CRM.
func companyHost(r *rand.Rand, i int, earlier []string) string {
	if i > 0 && r.IntN(50) == 0 {
		return earlier[r.IntN(i)]
	}
	return fmt.Sprintf("%s%s%d.%s", pick(r, nameParts), pick(r, nameParts), i, pick(r, tlds))
}

// messyWebsite writes host the many ways users type a website into a CRM.
func messyWebsite(r *rand.Rand, host string) string {
	switch r.IntN(20) {
	case 0, 1:
		return ""
	case 2, 3:
		return "https://www." + host + "/about"
	case 4, 5:
		return host
	case 6:
		return "http://" + host
	case 7:
		return "www." + host
	case 8:
		return "https://" + host + "/"
	case 9:
		return "https://WWW." + strings.ToUpper(host)
	case 10:
		return " " + host + " "
	default:
		return "https://www." + host
	}
}

func contactEmails(r *rand.Rand, j int, hosts []string, twoSometimes bool) []string {
	first, last := pick(r, firstNames), pick(r, lastNames)
	host := fmt.Sprintf("example%d.com", j%97)
	if len(hosts) > 0 {
		host = hosts[r.IntN(len(hosts))]
	}
	email := fmt.Sprintf("%s.%s%d@%s", first, last, j, host)
	switch r.IntN(20) {
	case 0, 1:
		email = ""
	case 2, 3:
		email = strings.ToUpper(first[:1]) + email[1:]
	}
	emails := []string{email}
	if twoSometimes && r.IntN(7) == 0 {
		emails = append(emails, fmt.Sprintf("%s%d@mail.example", first, j))
	}
	if email == "" && twoSometimes {
		// A Pipedrive person without an address has an empty emails array.
		emails = emails[1:]
	}
	return emails
}

func pick(r *rand.Rand, from []string) string { return from[r.IntN(len(from))] }

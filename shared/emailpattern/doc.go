// Package emailpattern is the address logic of email finding, without any network:
// local-part templates ("{first}.{last}", "{f}{last}", CommonTemplates), names folded to
// ASCII (é -> e, ü -> u, ß -> ss, ø -> o; ü, ö, ä, ø and å also transliterated, ü ->
// ue, in the order a domain's addresses show: Spelling) and multi-part names spelt several ways
// ("Mary-Jane" as maryjane, mary and mary-jane; "van der Berg" as vanderberg, berg and
// van-der-berg; "García Márquez" as garciamarquez, garcia and marquez), the candidate
// addresses of a person in tiers (Candidates), and a company's pattern learned from the
// addresses seen at its domain.
//
// Learning: LearnAll (or a Learner) takes Observations (domain, name, address, where it
// was seen) and gives each domain's Learned pattern: Template, Domain, Guess, a
// Confidence (0-1) calibrated on held-out people, and the Evidence behind it (how many
// addresses fit, how many contradict, example sources: email_pattern_evidence).
// CALIBRATION.md gives the measured accuracy, ECE and Brier score and how to reproduce
// them. LearnAll learns through each domain's Summary (bounded whatever its addresses)
// and the model fit on the summed Totals, so a process holding only those (published by
// shared/patternstore) learns the same pattern. shared/patternbook holds every address the service has seen and answers
// Pattern(ctx, domain) from this learner for contact search, contact generation and the
// finder alike; shared/emailfind verifies the candidates over SMTP.
package emailpattern

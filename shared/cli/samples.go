package cli

import (
	"context"
	"encoding/csv"
	"fmt"
	flag "github.com/spf13/pflag"
	"os"
	"path/filepath"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/world"
)

// sampleRows is how many of the demo world's companies the sample files hold.
const sampleRows = 50

// samples runs `firmo samples [--out DIR]`: it writes the small input files the
// README's examples use, made from the demo world `firmo serve` seeds (the same seed,
// so every name and domain is one the server knows), plus two names no company has:
//
//	companies.csv   Company, Country, City, Website (50 + 2 rows)
//	companies.xlsx  the same as an Excel workbook
//	domains.csv     domain (50 rows)
//	names.csv       Company, Country (20 + 2 rows)
func samples(_ context.Context, env Env) error {
	cfg, err := config.Load(env.Getenv)
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet("samples", flag.ContinueOnError)
	fs.SetOutput(env.Stdout) // only the help page (--help) is printed through it
	out := fs.String("out", filepath.Join(cfg.DataDir, "samples"), "directory to write the sample files into")
	if _, err := parseArgs(fs, env.Args[1:]); err != nil {
		return err
	}
	n := cfg.SeedCompanies
	if n <= 0 {
		n = 2000
	}
	w := world.New(world.Options{Seed: allapp.DefaultWorldSeed, Companies: n, AsOf: time.Now().UTC()}.Normalized())
	var companies, names, domains [][]string
	for i := range min(sampleRows, w.Len()) {
		c := w.Company(i)
		companies = append(companies, []string{c.Truth.Name, c.Truth.Country, c.Truth.City, "https://www." + c.Domain + "/"})
		domains = append(domains, []string{c.Domain})
		if i < 20 {
			names = append(names, []string{c.Truth.Name, c.Truth.Country})
		}
	}
	// Names no company of the world has: a file job reports them as rows without a result.
	for _, x := range [][]string{{"Zzzyxq Nonexistent", "US"}, {"Qwrtp Imaginary Holdings", "DE"}} {
		companies = append(companies, []string{x[0], x[1], "", ""})
		names = append(names, x)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	files := []struct {
		name   string
		header []string
		rows   [][]string
	}{
		{"companies.csv", []string{"Company", "Country", "City", "Website"}, companies},
		{"domains.csv", []string{"domain"}, domains},
		{"names.csv", []string{"Company", "Country"}, names},
	}
	for _, f := range files {
		if err := writeSampleCSV(filepath.Join(*out, f.name), f.header, f.rows); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "%s\n", filepath.Join(*out, f.name))
	}
	xlsx := filepath.Join(*out, "companies.xlsx")
	if err := writeSampleXLSX(xlsx, files[0].header, companies); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%s\n", xlsx)
	return nil
}

func writeSampleCSV(path string, header []string, rows [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	_ = w.Write(header)
	_ = w.WriteAll(rows)
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeSampleXLSX(path string, header []string, rows [][]string) error {
	x := excelize.NewFile()
	defer x.Close()
	sheet := x.GetSheetName(0)
	for r, row := range append([][]string{header}, rows...) {
		for c, v := range row {
			cell, err := excelize.CoordinatesToCellName(c+1, r+1)
			if err != nil {
				return err
			}
			if err := x.SetCellStr(sheet, cell, v); err != nil {
				return err
			}
		}
	}
	// Not x.SaveAs: it creates the file with mode 0755, an executable workbook.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if err := x.Write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

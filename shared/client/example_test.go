package client_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/firmoapi/firmo/shared/client"
)

// The three lines: a client from FIRMO_URL and FIRMO_API_KEY, one call, its answer
// and what it was charged.
func ExampleClient() {
	c, err := client.New(client.ConfigFromEnv(os.Getenv))
	if err != nil {
		log.Fatal(err)
	}
	profile, resp, err := c.Bizdata(context.Background(), "hansen.de")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(profile.Name, profile.Address.City, "credits:", resp.Credits, "request:", resp.RequestID)
}

// A bulk match of a CSV file, submitted, polled with backoff and returned when done;
// with a deadline on ctx it returns the interim answer and ErrNotFinished, and
// run.ID resumes it with ResumeTask.
func ExampleClient_BulkMatchAndWait() {
	c, err := client.New(client.ConfigFromEnv(os.Getenv))
	if err != nil {
		log.Fatal(err)
	}
	run, err := c.BulkMatchAndWait(context.Background(), client.BulkMatchRequest{
		File:       strings.NewReader("Company,Country\nHansen GmbH,DE\n"),
		FileName:   "companies.csv",
		NameColumn: "Company", CountryColumn: "Country",
	}, client.WaitOptions{OnPoll: func(st *client.TaskStatus) { log.Printf("%s %.0f%%", st.Status, st.Progress) }})
	if err != nil {
		log.Fatal(err)
	}
	for _, row := range run.Result.Results {
		fmt.Println(row)
	}
	fmt.Println("task", run.ID, "credits:", run.Credits)
}

// Command firmo runs the whole Firmo API as one process on embedded storage, and
// manages accounts. It is not deployed; AWS runs the functions/<family> Lambdas.
package main

import (
	"context"
	"os"

	"github.com/firmoapi/firmo/shared/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	os.Exit(cli.Run(context.Background(), cli.Env{
		Program: os.Args[0], Args: os.Args[1:], Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Version: version,
	}))
}

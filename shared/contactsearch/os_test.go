package contactsearch

import "os"

func osMkdirTemp() (string, error) { return os.MkdirTemp("", "contactsearch-test-") }

// Google's official Go client (google.golang.org/api 0.61.0, Debian's golang-google-api-dev) against the emulator,
// pointed there with option.WithEndpoint: each service's reads, writes, paging with Pages(), partial responses,
// conditional requests (304, 412), sync tokens and 410, a multi-chunk resumable Drive upload and its download, watches
// and their notifications, and Google's error type. Run by run.js, which starts the emulator and passes its URL and
// a token; the program ends with mocha's summary lines ("N passing", "N failing"), which npm test counts.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
)

// check is one named conformance check; it returns an error to fail.
type check struct {
	name string
	run  func(ctx context.Context, env *environment) error
}

// environment is what every check gets: the emulator's URL, client options per user, and the notification receiver.
type environment struct {
	url      string
	token    string
	receiver *receiver
}

// bearer adds the token to every request, as an OAuth transport would (no auth library needed against the emulator).
type bearer struct{ token string }

func (b bearer) RoundTrip(request *http.Request) (*http.Response, error) {
	copied := request.Clone(request.Context())
	copied.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(copied)
}

// options points a service at the emulator: the endpoint is the service's base path under the emulator's URL.
func (env *environment) options(basePath, token string) []option.ClientOption {
	return []option.ClientOption{
		option.WithEndpoint(env.url + basePath),
		option.WithHTTPClient(&http.Client{Transport: bearer{token}, Timeout: 120 * time.Second}),
	}
}

// tokenFor asks the emulator's development route for another user's token.
func (env *environment) tokenFor(user string) (string, error) {
	response, err := http.Post(env.url+"/emulator/v1/token?user="+user, "application/json", nil)
	if err != nil {
		return "", err
	}
	defer response.Body.Close()
	var answer struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(response.Body).Decode(&answer); err != nil {
		return "", err
	}
	if answer.AccessToken == "" {
		return "", fmt.Errorf("no token for %s (HTTP %d)", user, response.StatusCode)
	}
	return answer.AccessToken, nil
}

// googleError is the call's error as Google's *googleapi.Error, with its code, or a failure naming what came instead.
func googleError(err error, code int) error {
	var apiError *googleapi.Error
	if !errors.As(err, &apiError) {
		return fmt.Errorf("want a *googleapi.Error %d, got %v", code, err)
	}
	if apiError.Code != code {
		return fmt.Errorf("want HTTP %d, got %d: %s", code, apiError.Code, apiError.Message)
	}
	return nil
}

func expect(condition bool, format string, args ...interface{}) error {
	if condition {
		return nil
	}
	return fmt.Errorf(format, args...)
}

func main() {
	env := &environment{url: strings.TrimRight(os.Getenv("DESK_EMULATOR_URL"), "/"), token: os.Getenv("DESK_TOKEN")}
	if env.url == "" || env.token == "" {
		fmt.Println("DESK_EMULATOR_URL and DESK_TOKEN must be set (run.js sets them)")
		summary(0, 1)
		os.Exit(1)
	}
	receiver, err := startReceiver(env.url)
	if err != nil {
		fmt.Println("the notification receiver did not start:", err)
		summary(0, 1)
		os.Exit(1)
	}
	defer receiver.close()
	env.receiver = receiver

	var checks []check
	checks = append(checks, tasksChecks()...)
	checks = append(checks, booksChecks()...)
	checks = append(checks, driveChecks()...)
	checks = append(checks, calendarChecks()...)
	checks = append(checks, directoryChecks()...)

	passed, failed := 0, 0
	var failures []string
	for _, check := range checks {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		started := time.Now()
		err := check.run(ctx, env)
		cancel()
		if err == nil {
			passed++
			fmt.Printf("  ✔ %s (%dms)\n", check.name, time.Since(started).Milliseconds())
		} else {
			failed++
			failures = append(failures, fmt.Sprintf("  %d) %s:\n     %v", failed, check.name, err))
			fmt.Printf("  %d) %s\n", failed, check.name)
		}
	}
	summary(passed, failed)
	for _, failure := range failures {
		fmt.Println(failure)
	}
	if failed > 0 {
		os.Exit(1)
	}
}

// summary prints mocha's closing lines, which scripts/test-all.js counts.
func summary(passed, failed int) {
	fmt.Printf("\n  %d passing\n", passed)
	if failed > 0 {
		fmt.Printf("  %d failing\n", failed)
	}
}

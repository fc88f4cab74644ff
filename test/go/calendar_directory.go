// Calendar v3 and the Admin SDK Directory through the Go client: events written and read, Pages(), a stale If-Match
// (412), sync tokens and their 410, events.watch and users.watch with their notifications delivered.
package main

import (
	"context"
	"fmt"
	"time"

	admin "google.golang.org/api/admin/directory/v1"
	calendar "google.golang.org/api/calendar/v3"
	"google.golang.org/api/googleapi"
)

// A fixed week, so the checks never depend on today's date.
var week = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

func calendarService(ctx context.Context, env *environment) (*calendar.Service, error) {
	return calendar.NewService(ctx, env.options("/calendar/v3/", env.token)...)
}

func eventAt(summary string, hour int) *calendar.Event {
	start := week.Add(time.Duration(hour) * time.Hour)
	return &calendar.Event{
		Summary: summary,
		Start:   &calendar.EventDateTime{DateTime: start.Format(time.RFC3339)},
		End:     &calendar.EventDateTime{DateTime: start.Add(30 * time.Minute).Format(time.RFC3339)},
	}
}

func calendarChecks() []check {
	return []check{
		{"calendar: a calendar of five events read back with Pages() two at a time; get, patch, If-None-Match 304, stale If-Match 412, delete", func(ctx context.Context, env *environment) error {
			api, err := calendarService(ctx, env)
			if err != nil {
				return err
			}
			created, err := api.Calendars.Insert(&calendar.Calendar{Summary: "Go", TimeZone: "UTC"}).Do()
			if err != nil {
				return err
			}
			var first *calendar.Event
			for index := 0; index < 5; index++ {
				event, err := api.Events.Insert(created.Id, eventAt(fmt.Sprintf("go %d", index), index)).Do()
				if err != nil {
					return err
				}
				if first == nil {
					first = event
				}
			}
			pages, summaries := 0, map[string]bool{}
			err = api.Events.List(created.Id).MaxResults(2).Pages(ctx, func(page *calendar.Events) error {
				pages++
				for _, event := range page.Items {
					summaries[event.Summary] = true
				}
				return nil
			})
			if err != nil {
				return err
			}
			if err := expect(pages == 3 && len(summaries) == 5, "%d pages, %d distinct events", pages, len(summaries)); err != nil {
				return err
			}
			patched, err := api.Events.Patch(created.Id, first.Id, &calendar.Event{Summary: "go 0, moved"}).Do()
			if err != nil {
				return err
			}
			got, err := api.Events.Get(created.Id, first.Id).Do()
			if err != nil {
				return err
			}
			if err := expect(got.Summary == patched.Summary, "read %q", got.Summary); err != nil {
				return err
			}
			if _, err := api.Events.Get(created.Id, first.Id).IfNoneMatch(got.Etag).Do(); !googleapi.IsNotModified(err) {
				return fmt.Errorf("want 304 Not Modified for the current etag, got %v", err)
			}
			stale := api.Events.Patch(created.Id, first.Id, &calendar.Event{Summary: "lost update"})
			stale.Header().Set("If-Match", first.Etag)
			if err := googleError(errorOf(stale.Do()), 412); err != nil {
				return err
			}
			if err := api.Events.Delete(created.Id, first.Id).Do(); err != nil {
				return err
			}
			return api.Calendars.Delete(created.Id).Do()
		}},
		{"calendar: a sync token from the last page brings only what changed; an unknown token is a *googleapi.Error 410", func(ctx context.Context, env *environment) error {
			api, err := calendarService(ctx, env)
			if err != nil {
				return err
			}
			created, err := api.Calendars.Insert(&calendar.Calendar{Summary: "Go sync", TimeZone: "UTC"}).Do()
			if err != nil {
				return err
			}
			if _, err := api.Events.Insert(created.Id, eventAt("before", 1)).Do(); err != nil {
				return err
			}
			syncToken := ""
			err = api.Events.List(created.Id).Pages(ctx, func(page *calendar.Events) error {
				syncToken = page.NextSyncToken
				return nil
			})
			if err != nil {
				return err
			}
			if err := expect(syncToken != "", "the last page has no nextSyncToken"); err != nil {
				return err
			}
			added, err := api.Events.Insert(created.Id, eventAt("after", 2)).Do()
			if err != nil {
				return err
			}
			delta, err := api.Events.List(created.Id).SyncToken(syncToken).Do()
			if err != nil {
				return err
			}
			if err := expect(len(delta.Items) == 1 && delta.Items[0].Id == added.Id && delta.NextSyncToken != "", "the delta holds %d events", len(delta.Items)); err != nil {
				return err
			}
			return googleError(errorOf(api.Events.List(created.Id).SyncToken("CSnot-a-token").Do()), 410)
		}},
		{"calendar: events.watch answers the channel (int64 expiration decoded); the receiver gets sync, then exists", func(ctx context.Context, env *environment) error {
			api, err := calendarService(ctx, env)
			if err != nil {
				return err
			}
			channel, err := api.Events.Watch("primary", &calendar.Channel{Id: "go-events", Type: "web_hook", Address: env.receiver.url}).Do()
			if err != nil {
				return err
			}
			if err := expect(channel.Expiration > time.Now().UnixMilli() && channel.ResourceId != "", "channel %+v", channel); err != nil {
				return err
			}
			if _, err := env.receiver.waitFor(channel.Id, "sync"); err != nil {
				return err
			}
			if _, err := api.Events.Insert("primary", eventAt("watched", 3)).Do(); err != nil {
				return err
			}
			if _, err := env.receiver.waitFor(channel.Id, "exists"); err != nil {
				return err
			}
			return api.Channels.Stop(&calendar.Channel{Id: channel.Id, ResourceId: channel.ResourceId}).Do()
		}},
	}
}

func directoryChecks() []check {
	return []check{
		{"directory: users listed with Pages(), a user inserted and read; users.watch delivers add", func(ctx context.Context, env *environment) error {
			api, err := admin.NewService(ctx, env.options("/", env.token)...)
			if err != nil {
				return err
			}
			channel, err := api.Users.Watch(&admin.Channel{Id: "go-users", Type: "web_hook", Address: env.receiver.url}).Domain("example.com").Event("add").Do()
			if err != nil {
				return err
			}
			if err := expect(channel.Expiration > time.Now().UnixMilli(), "channel %+v", channel); err != nil {
				return err
			}
			if _, err := env.receiver.waitFor(channel.Id, "sync"); err != nil {
				return err
			}
			created, err := api.Users.Insert(&admin.User{PrimaryEmail: "gopher@example.com", Name: &admin.UserName{GivenName: "Go", FamilyName: "Pher"}, Password: "correct horse battery"}).Do()
			if err != nil {
				return err
			}
			if _, err := env.receiver.waitFor(channel.Id, "add"); err != nil {
				return err
			}
			got, err := api.Users.Get(created.Id).Do()
			if err != nil {
				return err
			}
			if err := expect(got.PrimaryEmail == "gopher@example.com", "read %q", got.PrimaryEmail); err != nil {
				return err
			}
			users := 0
			err = api.Users.List().Domain("example.com").MaxResults(2).Pages(ctx, func(page *admin.Users) error {
				users += len(page.Users)
				return nil
			})
			if err != nil {
				return err
			}
			if err := expect(users >= 3, "listed %d users", users); err != nil {
				return err
			}
			bobToken, err := env.tokenFor("bob@example.com")
			if err != nil {
				return err
			}
			asBob, err := admin.NewService(ctx, env.options("/", bobToken)...)
			if err != nil {
				return err
			}
			// Only the domain's admins change users: bob is not one.
			return googleError(errorOf(asBob.Users.Insert(&admin.User{PrimaryEmail: "nope@example.com", Name: &admin.UserName{GivenName: "N", FamilyName: "O"}, Password: "correct horse battery"}).Do()), 403)
		}},
	}
}

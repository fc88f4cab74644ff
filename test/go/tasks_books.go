// Tasks and Books through the Go client: reads, writes, Pages(), partial responses, error types.
package main

import (
	"context"
	"errors"
	"fmt"

	books "google.golang.org/api/books/v1"
	"google.golang.org/api/googleapi"
	tasks "google.golang.org/api/tasks/v1"
)

func tasksService(ctx context.Context, env *environment) (*tasks.Service, error) {
	return tasks.NewService(ctx, env.options("/", env.token)...)
}

func tasksChecks() []check {
	return []check{
		{"tasks: task lists insert, get, patch, delete", func(ctx context.Context, env *environment) error {
			api, err := tasksService(ctx, env)
			if err != nil {
				return err
			}
			created, err := api.Tasklists.Insert(&tasks.TaskList{Title: "From Go"}).Do()
			if err != nil {
				return err
			}
			if err := expect(created.Kind == "tasks#taskList" && created.Title == "From Go", "inserted %+v", created); err != nil {
				return err
			}
			patched, err := api.Tasklists.Patch(created.Id, &tasks.TaskList{Title: "Renamed in Go"}).Do()
			if err != nil {
				return err
			}
			got, err := api.Tasklists.Get(created.Id).Do()
			if err != nil {
				return err
			}
			if err := expect(patched.Title == "Renamed in Go" && got.Title == patched.Title, "patched %q, read %q", patched.Title, got.Title); err != nil {
				return err
			}
			if err := api.Tasklists.Delete(created.Id).Do(); err != nil {
				return err
			}
			return googleError(errorOf(api.Tasklists.Get(created.Id).Do()), 404)
		}},
		{"tasks: five tasks read back with Pages() two at a time (3 pages)", func(ctx context.Context, env *environment) error {
			api, err := tasksService(ctx, env)
			if err != nil {
				return err
			}
			list, err := api.Tasklists.Insert(&tasks.TaskList{Title: "Paged from Go"}).Do()
			if err != nil {
				return err
			}
			for index := 0; index < 5; index++ {
				if _, err := api.Tasks.Insert(list.Id, &tasks.Task{Title: fmt.Sprintf("task %d", index)}).Do(); err != nil {
					return err
				}
			}
			pages, titles := 0, map[string]bool{}
			err = api.Tasks.List(list.Id).MaxResults(2).Pages(ctx, func(page *tasks.Tasks) error {
				pages++
				for _, task := range page.Items {
					titles[task.Title] = true
				}
				return nil
			})
			if err != nil {
				return err
			}
			return expect(pages == 3 && len(titles) == 5, "%d pages, %d distinct tasks", pages, len(titles))
		}},
		{"tasks: a partial response (Fields) carries only the fields asked for", func(ctx context.Context, env *environment) error {
			api, err := tasksService(ctx, env)
			if err != nil {
				return err
			}
			task, err := api.Tasks.Insert("@default", &tasks.Task{Title: "Partial", Notes: "notes"}).Do()
			if err != nil {
				return err
			}
			partial, err := api.Tasks.Get("@default", task.Id).Fields("id,title").Do()
			if err != nil {
				return err
			}
			return expect(partial.Id == task.Id && partial.Title == "Partial" && partial.Notes == "" && partial.Status == "" && partial.Etag == "", "partial answer %+v", partial)
		}},
		{"tasks: a missing task is a *googleapi.Error 404 with reason notFound", func(ctx context.Context, env *environment) error {
			api, err := tasksService(ctx, env)
			if err != nil {
				return err
			}
			_, err = api.Tasks.Get("@default", "no-such-task").Do()
			var apiError *googleapi.Error
			if !errors.As(err, &apiError) {
				return fmt.Errorf("want *googleapi.Error, got %T %v", err, err)
			}
			return expect(apiError.Code == 404 && len(apiError.Errors) > 0 && apiError.Errors[0].Reason == "notFound", "got %d %+v", apiError.Code, apiError.Errors)
		}},
	}
}

// errorOf drops a call's value, keeping its error.
func errorOf(_ interface{}, err error) error {
	return err
}

func booksChecks() []check {
	return []check{
		{"books: volumes search and get; My Library shelf add, list, remove", func(ctx context.Context, env *environment) error {
			api, err := books.NewService(ctx, env.options("/", env.token)...)
			if err != nil {
				return err
			}
			found, err := api.Volumes.List("the").MaxResults(5).Do()
			if err != nil {
				return err
			}
			if err := expect(found.TotalItems > 0 && len(found.Items) > 0, "no volumes for 'the'"); err != nil {
				return err
			}
			volume, err := api.Volumes.Get(found.Items[0].Id).Do()
			if err != nil {
				return err
			}
			if err := expect(volume.Id == found.Items[0].Id && volume.VolumeInfo != nil && volume.VolumeInfo.Title != "", "volume %+v", volume); err != nil {
				return err
			}
			if _, err := api.Mylibrary.Bookshelves.AddVolume("0", volume.Id).Do(); err != nil {
				return err
			}
			shelf, err := api.Mylibrary.Bookshelves.Volumes.List("0").Do()
			if err != nil {
				return err
			}
			listed := false
			for _, item := range shelf.Items {
				listed = listed || item.Id == volume.Id
			}
			if err := expect(listed, "the added volume is not on the shelf"); err != nil {
				return err
			}
			if _, err := api.Mylibrary.Bookshelves.RemoveVolume("0", volume.Id).Do(); err != nil {
				return err
			}
			return googleError(errorOf(api.Volumes.Get("no-such-volume-id").Do()), 404)
		}},
	}
}

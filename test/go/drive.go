// Drive v2 through the Go client: files written and read, Pages(), a stale If-Match (412), the change feed, a
// resumable upload of 20 MiB in 8 MiB chunks (Go sends X-GUploader-No-308) and its download, and files.watch.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"strconv"

	drive "google.golang.org/api/drive/v2"
	"google.golang.org/api/googleapi"
)

const (
	largeUploadBytes = 20 << 20
	uploadChunkBytes = 8 << 20
)

func driveService(ctx context.Context, env *environment) (*drive.Service, error) {
	return drive.NewService(ctx, env.options("/drive/v2/", env.token)...)
}

func driveChecks() []check {
	return []check{
		{"drive: a folder of five files read back with Pages() two at a time; get, patch, a partial response", func(ctx context.Context, env *environment) error {
			api, err := driveService(ctx, env)
			if err != nil {
				return err
			}
			folder, err := api.Files.Insert(&drive.File{Title: "go-folder", MimeType: "application/vnd.google-apps.folder"}).Do()
			if err != nil {
				return err
			}
			for index := 0; index < 5; index++ {
				if _, err := api.Files.Insert(&drive.File{Title: fmt.Sprintf("go-%d", index), Parents: []*drive.ParentReference{{Id: folder.Id}}}).Do(); err != nil {
					return err
				}
			}
			pages, titles := 0, map[string]bool{}
			err = api.Files.List().Q(fmt.Sprintf("'%s' in parents", folder.Id)).MaxResults(2).Pages(ctx, func(page *drive.FileList) error {
				pages++
				for _, file := range page.Items {
					titles[file.Title] = true
				}
				return nil
			})
			if err != nil {
				return err
			}
			if err := expect(pages == 3 && len(titles) == 5, "%d pages, %d distinct files", pages, len(titles)); err != nil {
				return err
			}
			patched, err := api.Files.Patch(folder.Id, &drive.File{Title: "go-folder renamed"}).Do()
			if err != nil {
				return err
			}
			partial, err := api.Files.Get(folder.Id).Fields("id,title").Do()
			if err != nil {
				return err
			}
			return expect(partial.Title == patched.Title && partial.MimeType == "" && partial.Version == 0, "partial answer %+v", partial)
		}},
		{"drive: If-None-Match answered 304; a stale If-Match is a *googleapi.Error 412", func(ctx context.Context, env *environment) error {
			api, err := driveService(ctx, env)
			if err != nil {
				return err
			}
			file, err := api.Files.Insert(&drive.File{Title: "conditional.txt"}).Do()
			if err != nil {
				return err
			}
			if _, err := api.Files.Get(file.Id).IfNoneMatch(file.Etag).Do(); !googleapi.IsNotModified(err) {
				return fmt.Errorf("want 304 for the current etag, got %v", err)
			}
			if _, err := api.Files.Patch(file.Id, &drive.File{Title: "first writer"}).Do(); err != nil {
				return err
			}
			stale := api.Files.Patch(file.Id, &drive.File{Title: "second writer"})
			stale.Header().Set("If-Match", file.Etag)
			return googleError(errorOf(stale.Do()), 412)
		}},
		{"drive: the change feed from a start page token, paged with Pages(); int64 change ids decoded", func(ctx context.Context, env *environment) error {
			api, err := driveService(ctx, env)
			if err != nil {
				return err
			}
			start, err := api.Changes.GetStartPageToken().Do()
			if err != nil {
				return err
			}
			made := map[string]bool{}
			for index := 0; index < 3; index++ {
				file, err := api.Files.Insert(&drive.File{Title: fmt.Sprintf("changed-%d", index)}).Do()
				if err != nil {
					return err
				}
				made[file.Id] = true
			}
			seen, newStart := 0, ""
			err = api.Changes.List().PageToken(start.StartPageToken).MaxResults(2).Pages(ctx, func(page *drive.ChangeList) error {
				for _, change := range page.Items {
					if made[change.FileId] && change.Id > 0 {
						seen++
					}
				}
				if page.NewStartPageToken != "" {
					newStart = page.NewStartPageToken
				}
				return nil
			})
			if err != nil {
				return err
			}
			return expect(seen == 3 && newStart != "", "saw %d of 3 changes, next start %q", seen, newStart)
		}},
		{"drive: a 20 MiB resumable upload in 8 MiB chunks, then its download byte for byte", func(ctx context.Context, env *environment) error {
			api, err := driveService(ctx, env)
			if err != nil {
				return err
			}
			content := make([]byte, largeUploadBytes)
			for index := range content {
				content[index] = byte(index*7 + index/4096)
			}
			chunks := 0
			call := api.Files.Insert(&drive.File{Title: "large.bin", MimeType: "application/octet-stream"}).
				Media(bytes.NewReader(content), googleapi.ChunkSize(uploadChunkBytes)).
				ProgressUpdater(func(current, total int64) { chunks++ })
			file, err := call.Context(ctx).Do()
			if err != nil {
				return err
			}
			if err := expect(file.FileSize == largeUploadBytes, "fileSize %d", file.FileSize); err != nil {
				return err
			}
			if err := expect(chunks >= 3, "the upload went in %d progress steps, want one per 8 MiB chunk", chunks); err != nil {
				return err
			}
			response, err := api.Files.Get(file.Id).Context(ctx).Download()
			if err != nil {
				return err
			}
			defer response.Body.Close()
			hash := sha256.New()
			size, err := io.Copy(hash, response.Body)
			if err != nil {
				return err
			}
			want := sha256.Sum256(content)
			return expect(size == largeUploadBytes && bytes.Equal(hash.Sum(nil), want[:]), "downloaded %d bytes, same content: %v", size, bytes.Equal(hash.Sum(nil), want[:]))
		}},
		{"drive: files.watch answers the channel (int64 expiration decoded); the receiver gets sync, then update", func(ctx context.Context, env *environment) error {
			api, err := driveService(ctx, env)
			if err != nil {
				return err
			}
			file, err := api.Files.Insert(&drive.File{Title: "watched.txt"}).Do()
			if err != nil {
				return err
			}
			channel, err := api.Files.Watch(file.Id, &drive.Channel{Id: "go-drive-file", Type: "web_hook", Address: env.receiver.url, Token: "go-token"}).Do()
			if err != nil {
				return err
			}
			if err := expect(channel.Expiration > 0 && channel.ResourceId != "", "channel %+v", channel); err != nil {
				return err
			}
			sync, err := env.receiver.waitFor(channel.Id, "sync")
			if err != nil {
				return err
			}
			if err := expect(sync.number == "1" && sync.token == "go-token", "sync message %+v", sync); err != nil {
				return err
			}
			if _, err := api.Files.Patch(file.Id, &drive.File{Title: "watched, renamed.txt"}).Do(); err != nil {
				return err
			}
			update, err := env.receiver.waitFor(channel.Id, "update")
			if err != nil {
				return err
			}
			number, _ := strconv.Atoi(update.number)
			if err := expect(number > 1, "update numbered %q", update.number); err != nil {
				return err
			}
			return api.Channels.Stop(&drive.Channel{Id: channel.Id, ResourceId: channel.ResourceId}).Do()
		}},
	}
}

// The HTTPS receiver of push notifications: a certificate the emulator's own CA issues for 127.0.0.1 (so the
// emulator trusts it at watch time), and the messages it received, by channel, for the checks to wait on.
package main

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"
)

type notification struct {
	channelID string
	state     string
	number    string
	token     string
	body      []byte
}

type receiver struct {
	url      string
	server   *http.Server
	mu       sync.Mutex
	received []notification
}

func startReceiver(emulatorURL string) (*receiver, error) {
	response, err := http.Post(emulatorURL+"/emulator/v1/channels/certificates?host=127.0.0.1", "application/json", nil)
	if err != nil {
		return nil, err
	}
	defer response.Body.Close()
	var issued struct {
		Cert string `json:"cert"`
		Key  string `json:"key"`
	}
	if err := json.NewDecoder(response.Body).Decode(&issued); err != nil {
		return nil, fmt.Errorf("the receiver certificate: %v", err)
	}
	pair, err := tls.X509KeyPair([]byte(issued.Cert), []byte(issued.Key))
	if err != nil {
		return nil, err
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &receiver{url: fmt.Sprintf("https://127.0.0.1:%d/notifications", listener.Addr().(*net.TCPAddr).Port)}
	// The emulator checks the certificate with a connection it closes after the handshake: no log line for that.
	r.server = &http.Server{Handler: http.HandlerFunc(r.serve), TLSConfig: &tls.Config{Certificates: []tls.Certificate{pair}}, ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	go func() { _ = r.server.ServeTLS(listener, "", "") }()
	return r, nil
}

func (r *receiver) serve(writer http.ResponseWriter, request *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(request.Body, 1<<20))
	r.mu.Lock()
	r.received = append(r.received, notification{
		channelID: request.Header.Get("X-Svc-Channel-ID"),
		state:     request.Header.Get("X-Svc-Resource-State"),
		number:    request.Header.Get("X-Svc-Message-Number"),
		token:     request.Header.Get("X-Svc-Channel-Token"),
		body:      body,
	})
	r.mu.Unlock()
	writer.WriteHeader(http.StatusOK)
}

// waitFor returns the first message of `state` on the channel, waiting up to 10 s.
func (r *receiver) waitFor(channelID, state string) (notification, error) {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		r.mu.Lock()
		for _, message := range r.received {
			if message.channelID == channelID && message.state == state {
				r.mu.Unlock()
				return message, nil
			}
		}
		r.mu.Unlock()
		time.Sleep(50 * time.Millisecond)
	}
	return notification{}, fmt.Errorf("no %q message on channel %s within 10 s", state, channelID)
}

func (r *receiver) close() {
	_ = r.server.Close()
}

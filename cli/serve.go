package cli

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"locksim/class"
	"locksim/serve"
	"locksim/serve/classroom"
	"locksim/sim"
)

// serveCourse is -serve and -web: the course over SSH, in browser tabs
// or both, until a signal.
func serveCourse(ctx context.Context, e *env, c config, _ *sim.Backend) int {
	stderr := e.err
	// a taken port fails first, before anything is started
	l, wl, err := listenBoth(c.serve)
	if err != nil {
		fmt.Fprintf(stderr, "locksim: %s\n", errLine(err))
		return 2
	}
	cfg := serve.Config{HostKey: c.serve.hostKey, Dir: c.serve.dir, Instructors: c.serve.instructors,
		MaxSessions: c.serve.maxSessions, SessionsPerKey: c.serve.sessionsPerKey,
		SessionsPerAddress: c.serve.sessionsPerAddress, ClassSize: c.serve.classSize,
		MaxCommands: c.serve.maxCommands, CommandsPerKey: c.serve.commandsPerKey, CommandTime: c.serve.commandTime,
		Idle: never(c.serve.idle), MaxTime: never(c.serve.maxTime),
		AskName: true, HighContrast: c.theme == "high-contrast", NoQuiz: c.noQuiz, Log: log.New(stderr, "locksim: ", log.LstdFlags),
		PublicURL: c.serve.publicURL,
		Web:       serve.WebConfig{TrustProxy: c.serve.trustProxy, TLS: c.serve.tlsCert != "" || strings.HasPrefix(c.serve.publicURL, "https:"), Pages: webPages()}}
	if c.seedSet {
		cfg.Seed = c.seed
	}
	if c.redis != "" {
		cfg.Redis, cfg.Live = c.redis, sim.LiveOptions{Scale: c.scale, Timeout: c.timeout}
		// one sweep of killed runs' keys now, and a check that the server
		// runs what locksim sends; each session opens its own prefix
		b, err := sim.OpenLive(ctx, c.redis, cfg.Live)
		if err != nil {
			l.Close()
			wl.Close()
			fmt.Fprintf(stderr, "locksim: %v\n", err)
			return 2
		}
		if note := sweptNote(b); note != "" {
			fmt.Fprintf(stderr, "locksim: %s\n", note)
		}
		_ = b.Close(context.Background())
	}
	ro, scoring, ok := readBook(c, stderr) // for ssh HOST report CODE -format canvas|moodle
	if !ok {
		l.Close()
		wl.Close()
		return 2
	}
	hub, err := classHub(ctx, c.serve.classRedis, c.serve.dir, c.serve.classRetention)
	if err != nil {
		l.Close()
		wl.Close()
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		return 2
	}
	defer hub.Close()
	// a class store that stops answering is one log line per outage
	hub = class.OutageLog(hub, cfg.Log.Printf)
	classes := classroom.New(hub, publicJoin(c.serve.publicAddr), cfg.Log.Printf)
	if c.serve.web != "" {
		classes.OnWeb(c.serve.publicURL, c.serve.web, c.serve.tlsCert != "")
	}
	if ro != nil {
		classes.Enrol(ro.Enrolled()) // the class view's school roster, and its matches by hand
	}
	cfg.Class = classes
	cfg.Commands = sshCommands()
	if exe, err := os.Executable(); err == nil {
		cfg.Spawn = spawner(exe, nil, cfg.Redis, cfg.Live)
		child := labChildOf(exe, nil)
		cfg.Lab, cfg.LabLimits = child.Run, child.Limits().Holds()
	} else {
		fmt.Fprintf(stderr, "locksim: the commands over SSH and the lab's searches run in this process, at its priority: %v\n", err)
	}
	cfg.Commands["report"] = classroom.ReportBook(hub, ro, scoring)
	cfg.Commands["close"] = classroom.Close(hub)
	cfg.Commands["clear"] = classroom.Clear(hub)
	srv, err := serve.New(cfg)
	if err != nil {
		l.Close()
		wl.Close()
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		return 2
	}
	served := make(chan error, 2)
	if c.serve.addr != "" {
		port := "PORT"
		if _, p, err := net.SplitHostPort(l.Addr().String()); err == nil {
			port = p
		}
		fmt.Fprintf(stderr, "locksim: serving the course on %s (ssh -p %s HOST), host key %s; ctrl+c stops\n", l.Addr(), port, srv.Fingerprint())
		go func() { served <- srv.Serve(l) }()
	}
	if c.serve.web != "" {
		scheme := "http"
		if c.serve.tlsCert != "" {
			scheme = "https"
		}
		fmt.Fprintf(stderr, "locksim: serving the course in browser tabs on %s (%s); ctrl+c stops\n", wl.Addr(), pageURL(scheme, wl.Addr().String(), c.serve.publicURL))
		go func() { served <- srv.ServeWeb(wl, c.serve.tlsCert, c.serve.tlsKey) }()
	}
	select {
	case err = <-served:
	case <-ctx.Done():
	}
	cctx, cancel := context.WithTimeout(context.Background(), 3*shutdownWithin)
	defer cancel()
	_ = srv.Close(cctx)
	if err != nil {
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		return 1
	}
	return 0
}

// listenBoth opens -serve's address and -web's, each only when given (a
// listener left nil is closed as a no-op: see closer).
func listenBoth(c serveConfig) (closer, closer, error) {
	var l, wl closer
	if c.addr != "" {
		sl, err := serve.Listen(c.addr)
		if err != nil {
			return closer{}, closer{}, err
		}
		l = closer{sl}
	}
	if c.web != "" {
		w, err := net.Listen("tcp", c.web)
		if err != nil {
			l.Close()
			return closer{}, closer{}, fmt.Errorf("-web %s: %w", c.web, errors.Unwrap(err))
		}
		wl = closer{w}
	}
	return l, wl, nil
}

// closer is a listener that may be absent: Close then does nothing.
type closer struct{ net.Listener }

func (c closer) Close() error {
	if c.Listener == nil {
		return nil
	}
	return c.Listener.Close()
}

// never turns a flag's 0 (never) into the serve package's negative.
func never(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// classHub is where the classes are kept: the -class-redis server, so
// several servers serve one class, each key living retention past its
// last change; or this process's memory, written to dir/classes when
// there is a -serve-dir, so a class outlives a restart.
func classHub(ctx context.Context, url, dir string, retention time.Duration) (class.Hub, error) {
	switch {
	case url == "" && dir != "":
		return class.OpenDir(filepath.Join(dir, "classes"), retention, nil)
	case url == "":
		return class.NewMemory(nil), nil
	}
	h, err := class.NewRedis(ctx, url, nil)
	if err != nil {
		return nil, err
	}
	h.Retention = retention
	return h, nil
}

// publicJoin is what students type to join a class, CODE standing for
// the class's code, at -public-addr HOST:PORT (checked with the flags);
// "" without it, for each instructor's session to show the address its
// own client reached.
func publicJoin(addr string) string {
	if addr == "" {
		return ""
	}
	host, port, _ := net.SplitHostPort(addr)
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port == "22" {
		return "ssh CODE@" + host
	}
	return "ssh -p " + port + " CODE@" + host
}

// pageURL is the page's address for the start line: -public-url when
// given, else the listener's, with HOST for an address that listens on
// every interface (students reach it by one the server cannot know).
func pageURL(scheme, addr, public string) string {
	if public != "" {
		return public
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return scheme + "://" + addr + "/"
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "HOST"
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host + ":" + port + "/"
}

package termtest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Steps has every terminal step n times, once a second each, the
// terminals spread over the second as a class's keys are; it returns after
// the last step. step(i, k) is
// what terminal i types at its k-th step and the text that says its screen
// changed. It returns each step's time from the key sent to that text
// received at the client, sorted; a step whose text never came (Light.Wait
// reports it on tb) is left out.
func Steps(tb testing.TB, terms []*Light, n int, step func(i, k int) (key, want string)) []time.Duration {
	var (
		mu        sync.Mutex
		latencies []time.Duration
		wg        sync.WaitGroup
	)
	for i, lt := range terms {
		wg.Go(func() {
			time.Sleep(time.Duration(i) * time.Second / time.Duration(len(terms)))
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for k := range n {
				key, want := step(i, k)
				lt.Mark()
				sent := time.Now()
				_, _ = io.WriteString(lt.In, key)
				if lt.Wait(tb, want) {
					d := time.Since(sent)
					mu.Lock()
					latencies = append(latencies, d)
					mu.Unlock()
				}
				if k < n-1 {
					<-tick.C
				}
			}
		})
	}
	wg.Wait()
	slices.Sort(latencies)
	return latencies
}

// Percentile is the p-th percentile (0 to 100) of sorted, 0 when it is
// empty.
func Percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)*p/100, len(sorted)-1)]
}

// Millis is d in milliseconds, for testing.B.ReportMetric.
func Millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// clockTick is the unit of /proc/PID/stat's CPU times: USER_HZ, 100 on
// every architecture Linux runs Go on.
const clockTick = 10 * time.Millisecond

// ProcCPU is the CPU time (user and system, every thread) process pid has
// used so far, from /proc/PID/stat (Linux; proc(5)), to 10 ms.
func ProcCPU(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// the command name, in parentheses, may hold spaces: the fields are
	// counted from after its closing parenthesis, where field 3 begins
	end := bytes.LastIndexByte(raw, ')')
	if end < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(string(raw[end+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	// utime and stime are fields 14 and 15
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %v", pid, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * clockTick, nil
}

// ProcRSS is process pid's resident set in bytes, VmRSS in
// /proc/PID/status (Linux; proc(5)).
func ProcRSS(pid int) (uint64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:")
		if !ok {
			continue
		}
		kb, ok := strings.CutSuffix(strings.TrimSpace(rest), " kB")
		if !ok {
			return 0, fmt.Errorf("/proc/%d/status: VmRSS %q", pid, rest)
		}
		n, err := strconv.ParseUint(kb, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/status: %v", pid, err)
		}
		return n << 10, nil
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("/proc/%d/status: no VmRSS", pid)
}

// Text is what came since the mark, as sent (escape sequences and all).
func (lt *Light) Text() string {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	return string(lt.buf)
}

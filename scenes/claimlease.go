package scenes

import (
	"strings"
	"time"

	"locksim/scenes/say"
	"locksim/sim"
	"locksim/sim/ledger"
)

// The queue of the claim-lease scene, its jobs in line, the lease each
// claim takes and how long the story waits before the reaper runs.
const (
	claimQueue = sim.Queue("emq:{q}:")
	claimLease = 30 * time.Second
	claimPast  = 35 * time.Second
)

var claimJobs = []struct{ id, payload string }{{"j1", "invoice:42"}, {"j2", "thumb:7"}, {"j3", "mail:3"}}

// claimLeaseScene is scene 4: a job queue that leases instead of locking.
// One script claims the oldest job and scores it by its deadline on the
// server's clock; a reaper takes back whatever is past due; the job's
// attempts count fences a worker that comes back late.
func claimLeaseScene() *Scene {
	// the reaper runs 5 s after the deadline: that margin must survive the scale
	s := &Scene{ID: "claim-lease", Kind: Story, Wait: 10 * time.Second, Shortest: claimPast - claimLease}
	s.Knobs = []Knob{{Key: "f", Name: "w1", Values: []string{"crashes", "freezes"}}}
	s.Build = func(p Params) sim.Script { return claimStory(s.Value(p, "w1") == "freezes") }
	s.Say = sayClaim
	s.Predict = before(claimAnswer, "w3 claims")
	return s
}

// claimStory: w1 and w2 claim at the same moment; w1 crashes (or, frozen,
// pauses) holding j1 while w2 finishes j2; the story waits past the
// deadline, the reaper runs, w3 claims. The frozen w1 then wakes and
// completes with the attempts it was granted.
func claimStory(freeze bool) sim.Script {
	claim := sim.Step{Label: "claim", Run: func(x *sim.Exec) { x.Claim(claimQueue, claimLease) }}
	complete := sim.Step{Label: "complete", Run: func(x *sim.Exec) {
		if !x.Actor().Holds {
			x.Note(x.Actor().Name + " holds no job: nothing to complete")
			return
		}
		x.Complete(claimQueue)
	}}
	reap := sim.Step{Label: "reap", Run: func(x *sim.Exec) { x.Reap(claimQueue) }}
	worker := []sim.Step{claim, complete}
	keys := []string{claimQueue.Pending(), claimQueue.Active()}
	for _, j := range claimJobs {
		keys = append(keys, claimQueue.Job(j.id))
	}
	fault := sim.Move{Kind: sim.MoveCrash, Actor: "w1", Label: "w1 crashes"}
	if freeze {
		fault = sim.Move{Kind: sim.MovePause, Actor: "w1", Label: "w1 freezes"}
	}
	moves := []sim.Move{
		sim.Labeled("w1", "w1 claims"), sim.Labeled("w2", "w2 claims"), fault,
		sim.Labeled("w2", "w2 completes"), sim.Advance(claimPast),
		sim.Labeled("reaper", "reaper runs"), sim.Labeled("w3", "w3 claims"),
	}
	if freeze {
		moves = append(moves, sim.Move{Kind: sim.MoveResume, Actor: "w1", Label: "w1 wakes"}, sim.Labeled("w1", "w1 completes"))
	}
	moves = append(moves, sim.Labeled("w3", "w3 completes"))
	return sim.Script{
		Actors: []sim.ActorSpec{{Name: "w1", Program: worker}, {Name: "w2", Program: worker}, {Name: "w3", Program: worker},
			{Name: "reaper", Program: []sim.Step{reap, reap, reap}}},
		Keys:  keys,
		Watch: keys,
		Setup: func(x *sim.Exec) {
			for i, j := range claimJobs {
				x.Enqueue(claimQueue, j.id, j.payload, i+1)
			}
		},
		Moves: moves,
	}
}

// claimAnswer: the choices are "j1 with attempts 2", "j3", "nothing".
func claimAnswer(v Frame) int {
	_, rd, ok := v.L.LastOp("w3", sim.OpAcquire)
	switch {
	case !ok:
		return -1
	case rd.What == ledger.ClaimEmpty:
		return 2
	case rd.What != ledger.Granted:
		return -1
	case rd.Lease.Token == "j1" && rd.Lease.Fence == 2:
		return 0
	case rd.Lease.Token == "j3":
		return 1
	}
	return -1
}

// sayClaim: each worker's card names its job and attempts; the clock
// readout names each claim's deadline in story time; the reaper's names
// what it took back; the verdict counts claims, reaps and completions.
func sayClaim(v Frame, s *Said) {
	s.Vars["lease"] = secs(claimLease)
	s.Cards = map[string]string{"reaper": "reaps overdue"}
	for _, a := range v.Snap.Actors {
		if a.Name == "reaper" {
			continue
		}
		s.Cards[a.Name] = "no job yet"
		if ls := v.L.Latest(a.Name); ls != nil {
			s.Cards[a.Name] = ls.Token + " · attempts " + itoa(ls.Fence)
		}
	}
	s.Vars["deadlines"] = claimDeadlines(v)
	claims, reaped, done, refused, late := 0, 0, 0, 0, 0
	for _, rd := range v.L.Reads {
		switch rd.What {
		case ledger.Reaped:
			reaped += len(rd.Reaped)
			s.Vars["reaped"] = claimReaped(v, rd.Reaped)
		case ledger.Completed:
			done++
		case ledger.CompleteStale:
			refused++
		case ledger.CompleteGone: // the job left the active set before it: late, not refused
			late++
		}
	}
	for _, ls := range v.L.Leases {
		if ls.Form == sim.FormClaim {
			claims++
		}
	}
	if claims+reaped+done+refused+late == 0 {
		return
	}
	two := v.Text.Get("none")
	if o := v.L.LatestOverlap(); o != nil {
		two = v.Text.Fill("two", map[string]string{"first": o.First.Actor, "second": o.Second.Actor})
		s.Tone = say.Bad
	}
	lateText := ""
	if late > 0 {
		lateText = " · " + v.Text.Fill("verdict-late", map[string]string{"late": itoa(int64(late))})
	}
	s.Verdict = v.Text.Fill("verdict", map[string]string{"claimed": itoa(int64(claims)), "reaped": itoa(int64(reaped)),
		"done": itoa(int64(done)), "refused": itoa(int64(refused)), "late": lateText, "two": two})
}

// claimDeadlines says, for each claim still open, when its deadline falls
// in story time and whether it has passed.
func claimDeadlines(v Frame) string {
	var parts []string
	for _, ls := range v.L.Leases {
		if ls.Form != sim.FormClaim || ls.End != ledger.Open {
			continue
		}
		section := "deadline-ahead"
		if ls.Overdue(v.Snap.Now) {
			section = "deadline-passed"
		}
		parts = append(parts, v.Text.Fill(section, map[string]string{"job": ls.Token, "holder": ls.Actor, "deadline": Stamp(ls.Ends())}))
	}
	if len(parts) == 0 {
		return v.Text.Get("deadline-none")
	}
	return strings.Join(parts, " ")
}

// claimReaped names the claims a reap took back; one whose deadline had
// not yet come in story time was due on the server's clock, which a live
// server does not hold while the learner reads.
func claimReaped(v Frame, reaped []*ledger.Lease) string {
	if len(reaped) == 0 {
		return v.Text.Get("reaped-none")
	}
	var parts []string
	for _, ls := range reaped {
		section := "reaped-one"
		if ls.EndedEarly() {
			section = "reaped-early"
		}
		parts = append(parts, v.Text.Fill(section, map[string]string{"job": ls.Token, "holder": ls.Actor, "deadline": Stamp(ls.Ends())}))
	}
	return strings.Join(parts, "; ")
}

package play

// openAt asks a freshly started scene to go to step once it has started
// (-step N, or where the learner left it last time). A step past the
// decisive point means the learner has seen it: the question is not asked.
func (p *Session) openAt(step int) {
	if at := p.Scene.PredictAt(p.MoveLabels()); at >= 0 && step > at && p.Guess < 0 {
		p.Passed = true
	}
	p.pending = append(p.pending, DoN(Seek, step))
}

// The matching machine of gopher-lua's pm/pm.go, changed to count its
// steps, ask a Meter and stop at MaxDepth (see the package comment and
// LICENSE).

package pattern

/* VM {{{ */

// MeterEvery is how many steps of the matching machine pass between two
// questions to the Meter.
const MeterEvery = 16

// MaxDepth is how deep the matching machine may recurse: each repetition
// it tries is a nested call.
const MaxDepth = 20_000

// Meter is asked every MeterEvery steps whether the match may go on; it
// returns the error that stops it, or nil.
type Meter interface {
	Spend() error
}

// stopped carries a Meter's error out of the recursion.
type stopped struct{ err error }

type machine struct {
	src   string
	insts []inst
	meter Meter
	steps int
	depth int
}

func (vm *machine) step() {
	vm.steps++
	if vm.steps%MeterEvery == 0 && vm.meter != nil {
		if err := vm.meter.Spend(); err != nil {
			panic(stopped{err})
		}
	}
}

// Simple recursive virtual machine based on the
// "Regular Expression Matching: the Virtual Machine Approach" (https://swtch.com/~rsc/regexp/regexp2.html)
func (vm *machine) run(pc, sp int, m *MatchData) (bool, int) {
	vm.depth++
	defer func() { vm.depth-- }()
	if vm.depth > MaxDepth {
		panic(newError(_UNKNOWN, "pattern too complex"))
	}
	src, insts := vm.src, vm.insts
redo:
	vm.step()
	inst := insts[pc]
	switch inst.OpCode {
	case opChar:
		if sp >= len(src) || !inst.Class.Matches(int(src[sp])) {
			return false, sp
		}
		pc++
		sp++
		goto redo
	case opMatch:
		return true, sp
	case opTailMatch:
		return sp >= len(src), sp
	case opJmp:
		pc = inst.Operand1
		goto redo
	case opSplit:
		if ok, nsp := vm.run(inst.Operand1, sp, m); ok {
			return true, nsp
		}
		pc = inst.Operand2
		goto redo
	case opSave:
		s := m.setCapture(inst.Operand1, sp)
		if ok, nsp := vm.run(pc+1, sp, m); ok {
			return true, nsp
		}
		m.restoreCapture(inst.Operand1, s)
		return false, sp
	case opPSave:
		m.addPosCapture(inst.Operand1, sp+1)
		pc++
		goto redo
	case opBrace:
		if sp >= len(src) || int(src[sp]) != inst.Operand1 {
			return false, sp
		}
		count := 1
		for sp = sp + 1; sp < len(src); sp++ {
			vm.step()
			if int(src[sp]) == inst.Operand2 {
				count--
			}
			if count == 0 {
				pc++
				sp++
				goto redo
			}
			if int(src[sp]) == inst.Operand1 {
				count++
			}
		}
		return false, sp
	case opNumber:
		idx := inst.Operand1 * 2
		if idx >= m.CaptureLength()-1 {
			panic(newError(_UNKNOWN, "invalid capture index"))
		}
		capture := src[m.Capture(idx):m.Capture(idx+1)]
		for i := 0; i < len(capture); i++ {
			vm.step()
			if i+sp >= len(src) || capture[i] != src[i+sp] {
				return false, sp
			}
		}
		pc++
		sp += len(capture)
		goto redo
	}
	panic("should not reach here")
}

/* }}} */

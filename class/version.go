package class

// changed says the class's students changed as the part last heard
// them: a member's row (their name, their answers), a match by hand, the
// school's roster. What is worked out from them (Students, Enrolment,
// AskedOfStudents) is worked out again, and Version moves on.
func (p *Part) changed() {
	p.enrolment, p.students = nil, nil
	p.version++
}

// Version counts the changes to what the part last heard of the class's
// students: their rows and answers, the matches by hand and the school's
// roster. Students, Enrolment and AskedOfStudents are the same while it
// is: a screen that draws from them keys what it drew on it.
func (p *Part) Version() uint64 { return p.version }

// AskedOfStudents is AskedOf the class's students as last heard
// (Students), worked out again only once they changed (Version), and
// shared: its slices are not to be changed.
func (p *Part) AskedOfStudents() []Asked {
	if p.askedOf == nil || p.askedAt != p.version {
		p.askedOf, p.askedAt = AskedOf(p.Students()), p.version
		if p.askedOf == nil {
			p.askedOf = []Asked{} // worked out: none
		}
	}
	return p.askedOf
}

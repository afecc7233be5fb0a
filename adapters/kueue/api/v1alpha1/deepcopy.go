package v1alpha1

import "k8s.io/apimachinery/pkg/runtime"

// DeepCopyInto copies s into out.
func (s *DeadlineParametersSpec) DeepCopyInto(out *DeadlineParametersSpec) {
	*out = *s
	if s.JobTypes != nil {
		out.JobTypes = make([]JobType, len(s.JobTypes))
		for i := range s.JobTypes {
			s.JobTypes[i].DeepCopyInto(&out.JobTypes[i])
		}
	}
	if s.ResidualCapacity != nil {
		r := *s.ResidualCapacity
		out.ResidualCapacity = &r
	}
}

// DeepCopyInto copies j into out.
func (j *JobType) DeepCopyInto(out *JobType) {
	*out = *j
	if j.Lognormal != nil {
		l := *j.Lognormal
		out.Lognormal = &l
	}
	if j.Exp2 != nil {
		e := *j.Exp2
		out.Exp2 = &e
	}
}

// DeepCopyInto copies p into out.
func (p *DeadlineParameters) DeepCopyInto(out *DeadlineParameters) {
	*out = *p
	out.TypeMeta = p.TypeMeta
	p.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	p.Spec.DeepCopyInto(&out.Spec)
}

// DeepCopy returns a deep copy of p.
func (p *DeadlineParameters) DeepCopy() *DeadlineParameters {
	if p == nil {
		return nil
	}
	out := new(DeadlineParameters)
	p.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (p *DeadlineParameters) DeepCopyObject() runtime.Object { return p.DeepCopy() }

// DeepCopyInto copies l into out.
func (l *DeadlineParametersList) DeepCopyInto(out *DeadlineParametersList) {
	*out = *l
	out.TypeMeta = l.TypeMeta
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	if l.Items != nil {
		out.Items = make([]DeadlineParameters, len(l.Items))
		for i := range l.Items {
			l.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
}

// DeepCopy returns a deep copy of l.
func (l *DeadlineParametersList) DeepCopy() *DeadlineParametersList {
	if l == nil {
		return nil
	}
	out := new(DeadlineParametersList)
	l.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (l *DeadlineParametersList) DeepCopyObject() runtime.Object { return l.DeepCopy() }

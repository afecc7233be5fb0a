package tct

import (
	"testing"
)

// TestFitExp2RapidRegressions holds data on which rapid or a seeded sweep
// found a fit above the generating parameters' SSE (beyond rounding, see
// exp2SweepMiss); the comment says what makes each hard. A nil y means
// exact data, y = truth.TCT(x).
//
// A case with truthSSE set has no recorded truth: the fit's SSE must not
// exceed that generating SSE.
func TestFitExp2RapidRegressions(t *testing.T) {
	for _, tt := range []struct {
		name     string
		truth    Exp2
		truthSSE float64
		x, y     []float64
		// converged: the report must say Converged.
		converged bool
	}{
		{
			// rapid in CI (5 points, a deep dip at the second point): the
			// generating parameters' SSE is 3.789e-08.
			name:     "deep dip at the second of 5 points",
			truthSSE: 3.789e-08,
			x:        []float64{-5.3125, -2.8125, 1.125, 3.625, 6.125},
			y:        []float64{-8.304989552361535, -87.05493526359069, -4.090460930417995, -0.5627183041521246, -0.07728436147385945},
		},
		{
			// Most starts slide into the b → d valley (SSE 0.03447); the
			// separated minimum (SSE 0.02616) is reached only from grid pairs
			// beyond the first ten.
			name:  "collapse valley beside a narrow separated basin",
			truth: Exp2{A: -0.375, B: -799.609375, C: 3.99609375, D: -224.609375},
			x:     []float64{0.00036363636363636367, 0.0012727272727272726, 0.002181818181818182, 0.003090909090909091, 0.004, 0.00490909090909091, 0.005818181818181819, 0.0067272727272727284, 0.0076363636363636364, 0.008545454545454545, 0.009454545454545455, 0.010363636363636365},
			y:     []float64{3.4089430345650427, 2.920141073795829, 2.4090359401003436, 1.977469351938791, 1.7182431201761925, 1.3458729135750218, 1.0847300768008954, 0.7738359875077163, 0.7447533993352337, 0.6123894672450437, 0.5309093191759503, 0.44273744775174595},
		},
		{
			// Nearly linear data: the separated minimum (SSE 0.005945) is
			// found only from the grid pair (0, 0.4); every other start ends
			// in the b → d valley (SSE 0.02974).
			name:  "near-linear data",
			truth: Exp2{A: 3.375, B: 3.125, C: -8.75, D: 71.875},
			x:     []float64{0.0001388888888888889, 0.0015555555555555555, 0.0026666666666666666, 0.003777777777777778, 0.00488888888888889, 0.006000000000000001, 0.0071111111111111115, 0.008222222222222223, 0.009333333333333334, 0.010138888888888888},
			y:     []float64{-5.346864796420374, -6.365024607107702, -7.166727167483431, -8.05032719211212, -8.992833304566147, -10.014642415040706, -11.10804385198718, -12.222954508996729, -13.624638089655488, -14.64673606606856},
		},
		{
			// Seeded sweep, noise 10⁻⁶ of max|y|, 9 points: a term 0.5% of
			// the data decaying at −25/span beside one at −16/span. Most
			// starts end in the b → d valley (SSE 7.9e-12); the first point
			// is isolated (its neighbour e^−31 away at the box rate), and a
			// box-edge term fitting it alone reaches 3.4e-12, below the
			// generating 4.5e-12.
			name:  "small fast term beside a dominant decay, 9 points",
			truth: Exp2{A: 0.001520959939007251, B: -1.3275550259253268, C: -0.4747052238409556, D: -0.8421177704371061},
			x:     []float64{-0.852169915722129, 2.0429421307662032, 4.362797750510539, 7.691707768551068, 8.976057552001357, 12.575189680722955, 13.87748993548539, 16.127352397304506, 17.99163386148112},
			y:     []float64{-0.9682252222218544, -0.08486836369315492, -0.01204166448669986, -0.0007303865645231144, -0.0002467114930204967, -1.2639019571409964e-05, -4.729769346102088e-06, -1.4762630168392507e-06, 7.592490567317739e-07},
		},
		{
			// rapid, noise 10⁻⁶: rates ±0.002 per span with amplitudes −1.8
			// and 3.2 give a nearly straight line, best fitted near b = d:
			// the lowest point of b = d is below the generating SSE, and the
			// result must stay exp2 (terms thousands of times the data), not
			// collapse to one exponential.
			name:  "nearly equal small rates, 5 points",
			truth: Exp2{A: -1.778279410038923, B: 0.0001953125, C: 3.1622776601683795, D: -0.0001953125},
			x:     []float64{1.125, 3.625, 6.125, 7.8125, 11.125},
			y:     []float64{1.3829127132589036, 1.3805006545193332, 1.378088906009761, 1.3764611719738378, 1.3732664170602191},
		},
		{
			// rapid, noise 10⁻⁶, 5 points: a term 0.3% of the other at a rate
			// 0.6/span away. The lowest exp2 is a spike: a rate at the box
			// edge fits the first point alone, one exponential the other four
			// (0.82 × the generating SSE).
			name:  "small second term at a nearly equal rate, 5 points",
			truth: Exp2{A: -0.03162277660168379, B: -0.925, C: 10, D: -0.9875},
			x:     []float64{0.3125, 2.8125, 5.625, 8.625, 11.125},
			y:     []float64{7.321107465379472, 0.619691007581879, 0.03851898390921303, 0.0019909987873625115, 0.00017196923993995018},
		},
		{
			// rapid, exact data: terms ±1000 at rates 3·10⁻⁵ and 1.5·10⁻⁵
			// per span cancel to data 6·10⁴ times smaller, exact only to
			// that many ulps. The best fit lies at b = d; moving along it to
			// terms 10⁶ × the data leaves 10⁻¹⁰ rounding in every value, so
			// the result is taken where the evaluated model is closest.
			name:  "cancelling terms at nearly equal tiny rates, exact, 5 points",
			truth: Exp2{A: 1000, B: 3.0517578125e-06, C: -1000, D: 1.52587890625e-06},
			x:     []float64{1.125, 3.625, 6.125, 8.625, 11.125},
		},
		{
			// rapid, as above with terms 10⁶ × the data.
			name:  "cancelling terms at nearly equal rates 1e-7, exact, 5 points",
			truth: Exp2{A: 1000, B: 1.9073486328125e-07, C: -1000, D: 9.5367431640625e-08},
			x:     []float64{1.125, 3.625, 6.125, 8.625, 11.125},
		},
		{
			// rapid, exact data: rates 2.4·10⁻⁴ and −0.014 per span (the data
			// nearly a straight line). The minimum lies at the end of a long
			// curved valley of nearly equal small rates, more than one
			// iteration budget away from where runs enter it.
			name:      "nearly straight exact data, 5 points",
			truth:     Exp2{A: 1.1547819846894583, B: 2.44140625e-05, C: 0.056234132519034905, D: -0.0013671875},
			x:         []float64{1.125, 3.625, 6.125, 8.625, 10.625},
			y:         []float64{1.2109614082328095, 1.210840311113601, 1.21071987200529, 1.2106000886775983, 1.2105047326836023},
			converged: true,
		},
		{
			// rapid, exact data: terms 866 and −1000 at rates 0.0084 and
			// 0.0042 per span cancel to data 7.5 times smaller (a nearly
			// straight line). The exact fit is about 200 iterations from the
			// starts, while the lowest point of b = d (3.2·10⁻¹⁹ of Σy²,
			// terms 3·10⁴ times the data) is close to them.
			name:      "cancelling terms at nearly equal small rates, exact, 5 points",
			truth:     Exp2{A: 865.9643233600655, B: 0.00078125, C: -1000, D: 0.000390625},
			x:         []float64{0.3125, 3.625, 6.125, 8.625, 11.125},
			converged: true,
		},
		{
			// rapid, exact data, as above with terms 1.2 times the data: the
			// lowest point of b = d lies at 6.4·10⁻¹⁸ of Σy², the exact fit
			// more than one iteration budget away.
			name:      "nearly equal small growth rates, exact, 5 points",
			truth:     Exp2{A: 0.01333521432163324, B: 0.001708984375, C: -0.07498942093324558, D: 0.00078125},
			x:         []float64{0.078125, 3.625, 6.125, 8.625, 10.625},
			y:         []float64{-0.0616570031802586, -0.06178401101301445, -0.06187358275580711, -0.061963195951031134, -0.062034916022953954},
			converged: true,
		},
		{
			// rapid seed 83, exact data: rates 0.0166 and 0.0117 per span
			// with terms 0.7 and 1.7 times the data (a nearly straight
			// line). In the rates and in (s, q) the valley towards the exact
			// fit is strongly curved, and the lowest point of b = d lies at
			// 8.8·10⁻¹⁸ of Σy².
			name:      "nearly straight exact data, curved valley, 5 points",
			truth:     Exp2{A: 0.01333521432163324, B: 0.00166015625, C: -0.03162277660168379, D: 0.001171875},
			x:         []float64{1.125, 3.625, 6.125, 8.125, 11.125},
			converged: true,
		},
		{
			// rapid seed 83, exact data, as above with rates 0.0171 and 0.0142
			// per span: runs end on their budget or stop in the valley, one
			// term 0.1% to 1% of the other, near 1.4·10⁻²⁰ of Σy².
			name:      "nearly straight exact data, nearly equal growth rates, 5 points",
			truth:     Exp2{A: 0.03162277660168379, B: 0.001708984375, C: 0.06493816315762113, D: 0.001416015625},
			x:         []float64{1.125, 3.625, 6.125, 8.625, 11.125},
			converged: true,
		},
		{
			// rapid seed 5, exact data: a term 0.3% of the other, rates
			// −0.031 and −0.063 per span; runs can stop near 10⁻¹⁹ of Σy²,
			// the small term's rate barely determined.
			name:      "nearly straight exact data, a small term, 5 points",
			truth:     Exp2{A: 3.1622776601683795, B: -0.003125, C: 1000, D: -0.00625},
			x:         []float64{1.125, 3.625, 6.125, 6.375, 11.125},
			converged: true,
		},
		{
			// rapid seed 7, exact data, as above: a term 0.2% of the other
			// at rates −0.09 and −0.125 per span (runs can stop near 5·10⁻¹⁹
			// of Σy²).
			name:      "nearly straight exact data, a small term at a nearly equal rate, 5 points",
			truth:     Exp2{A: -1000, B: -0.0125, C: -1.778279410038923, D: -0.009375},
			x:         []float64{1.125, 3.625, 6.125, 8.625, 11.125},
			converged: true,
		},
		{
			// rapid seed 52 (noisy, 5 points): a converged run well apart
			// from b = d has a dead second term (3·10⁻⁷ of the data), 0.4%
			// above the generating SSE; a steep term fitting the first
			// point, beyond b = d, is below it.
			name:     "dead second term ends the search early, decay, 5 points",
			truthSSE: 9.481041136924548e-43,
			x:        []float64{30.3125, 32.65625, 35.15625, 38.625, 40.625},
			y:        []float64{9.359641887651218e-16, 6.438012181909805e-17, 3.704080285556895e-18, 7.141164745502473e-20, 7.23563994989864e-21},
		},
		{
			// rapid seed 89 (noisy, 5 points), as above with a growth and a
			// second term 2·10⁻¹⁰ of the data (2.4% above the generating
			// SSE); a steep term fitting the last point is below it.
			name:     "dead second term ends the search early, growth, 5 points",
			truthSSE: 6.76463509492473e+07,
			x:        []float64{1.125, 3.625, 4.921875, 7.65625, 10.0390625},
			y:        []float64{12579.132936730166, 3.4778773426051084e+06, 6.449387903517521e+07, 3.0297759312286148e+10, 6.453553022867745e+12},
		},
		{
			// rapid seeds 17, 21 and 22, exact data: a decay at −30/span
			// with a third of the other term's size, 5 points; it
			// contributes 5.5·10⁻⁴ of its size at the second point, and a
			// box-edge term fitting the first point alone comes within
			// 6·10⁻¹⁰ of the data.
			name:  "steep decay seen by two points, exact, 5 points",
			truth: Exp2{A: 3.1622776601683795, B: -3, C: -10, D: -0.1},
			x:     []float64{1.125, 3.625, 6.125, 8.625, 11.125},
		},
		{
			// rapid seed 9, exact data, as above with the other term at
			// −4.9/span: the run from the residual start (−25, −4.84 per
			// span) takes one Gauss–Newton step in the steep rate to the
			// box bound, where the SSE is 7·10⁻¹³ of Σy² and every
			// derivative in that rate is e^−50 small; the spike run, in the
			// tail coordinate e^(rate·h), goes on to the exact fit.
			name:  "steep decay, a Gauss–Newton step to the box bound, exact, 5 points",
			truth: Exp2{A: 3.1622776601683795, B: -3, C: -10, D: -0.490625},
			x:     []float64{1.125, 3.625, 6.125, 8.625, 11.125},
		},
		{
			// rapid, noise 30%: runs can end at different points of b = d
			// (s = 6.4, 9.0, 10.2 per span, SSE up to 2.5 × the generating
			// one); the lowest point of b = d, s = 5.3, lies below the
			// generating SSE.
			name:  "several minima along b = d, 33 points",
			truth: Exp2{A: -0.06731703824144983, B: 0.6171875, C: 1.5678788438269704, D: 0.396875},
			x:     []float64{10.078125, 10.453125, 10.765625, 11.078125, 11.390625, 11.703125, 12.015625, 12.328125, 12.640625, 12.953125, 13.265625, 13.578125, 13.890625, 14.203125, 14.515625, 14.828125, 15.140625, 15.453125, 15.765625, 16.078125, 16.390625, 16.703125, 17.015625, 17.328125, 17.640625, 17.953125, 18.265625, 18.578125, 18.890625, 19.203125, 19.515625, 19.828125, 20.140625},
			y:     []float64{59.3693592270553, -65.43077264413878, 152.26575652925231, 72.16998194330084, -54.090159387023874, 78.47033447917416, 76.56444991602311, 77.14236397633564, 75.87608036739547, 37.775826614996234, 30.691976242768522, 57.400431050001245, -89.42957524831972, 23.514669313554045, -10.223987226725024, 51.0019420463406, -9.607062557571638, -180.68263459526491, -306.7955482260606, -443.4868534190565, -616.6808651830466, -955.0997610017073, -1105.707830169786, -1449.34556849729, -1880.5729115379172, -2419.516273196952, -3060.9827986882974, -3896.609177676143, -4948.757698201519, -6244.268516745688, -7827.789829569785, -9733.474570829885, -12147.921416517978},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			y := tt.y
			if y == nil {
				y = make([]float64, len(tt.x))
				for i, x := range tt.x {
					y[i] = tt.truth.TCT(x)
				}
			}
			m, rep, err := FitExp2(tt.x, y, FitOptions{})
			if err != nil {
				t.Fatal(err)
			}
			fitCheckFinite(t, m, rep)
			if tt.truthSSE > 0 {
				t.Logf("SSE %.4g, generating %.4g; %+v", rep.SSE, tt.truthSSE, rep)
				if rep.SSE > tt.truthSSE {
					t.Errorf("SSE %v above the generating %v: %+v %+v", rep.SSE, tt.truthSSE, m, rep)
				}
				return
			}
			miss, truthSSE := exp2SweepMiss(tt.truth, tt.x, y, rep.SSE)
			t.Logf("SSE %.4g, generating %.4g; %+v", rep.SSE, truthSSE, rep)
			if miss {
				t.Errorf("SSE %v above the generating %v: %+v %+v", rep.SSE, truthSSE, m, rep)
			}
			if tt.converged && !rep.Converged {
				t.Errorf("not converged: %+v", rep)
			}
		})
	}
}

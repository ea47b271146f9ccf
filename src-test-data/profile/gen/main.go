// Writes a pprof profile with Go's own github.com/google/pprof/profile package (Debian's
// golang-github-google-pprof-dev) from a plain-text description (see ../regenerate.sh):
//
//	mapping ID START LIMIT OFFSET FILE BUILDID [has_functions]
//	location ID MAPPING ADDRESS
//	symbolized ID MAPPING ADDRESS FUNCTION FILE LINE   (a location that already has its line)
//	sample LOCID,LOCID,... VALUE VALUE [KEY=STR|KEY=NUM]...
//	comment TEXT
//	random SAMPLES STACKS DEPTH SEED   (benchmarks: SAMPLES samples over STACKS distinct stacks,
//	                                    paths of a random call tree over the locations so far,
//	                                    up to DEPTH frames; the stacks drawn Zipf-distributed)
//
// Usage: go run . SPEC OUT.pb.gz (bench/profile-vs-llvm.sh also uses it)
package main

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
)

func num(s string) uint64 {
	v, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		panic(err)
	}
	return v
}

func main() {
	in, err := os.Open(os.Args[1])
	if err != nil {
		panic(err)
	}
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        10000000,
		TimeNanos:     1764000000000000000,
		DurationNanos: 2000000000,
	}
	mappings := map[uint64]*profile.Mapping{}
	locations := map[uint64]*profile.Location{}
	functions := map[string]*profile.Function{}
	s := bufio.NewScanner(in)
	for s.Scan() {
		f := strings.Fields(s.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch f[0] {
		case "mapping":
			m := &profile.Mapping{ID: num(f[1]), Start: num(f[2]), Limit: num(f[3]), Offset: num(f[4]), File: f[5]}
			if f[6] != "-" {
				m.BuildID = f[6]
			}
			if len(f) > 7 && f[7] == "has_functions" {
				m.HasFunctions = true
			}
			mappings[m.ID] = m
			p.Mapping = append(p.Mapping, m)
		case "location", "symbolized":
			l := &profile.Location{ID: num(f[1]), Address: num(f[3])}
			if id := num(f[2]); id != 0 {
				l.Mapping = mappings[id]
			}
			if f[0] == "symbolized" {
				fn := functions[f[4]]
				if fn == nil {
					fn = &profile.Function{ID: uint64(len(functions) + 1), Name: f[4], SystemName: f[4], Filename: f[5]}
					functions[f[4]] = fn
					p.Function = append(p.Function, fn)
				}
				l.Line = []profile.Line{{Function: fn, Line: int64(num(f[6]))}}
			}
			locations[l.ID] = l
			p.Location = append(p.Location, l)
		case "sample":
			smp := &profile.Sample{Label: map[string][]string{}, NumLabel: map[string][]int64{}}
			for _, id := range strings.Split(f[1], ",") {
				smp.Location = append(smp.Location, locations[num(id)])
			}
			smp.Value = []int64{int64(num(f[2])), int64(num(f[3]))}
			for _, kv := range f[4:] {
				k, v, _ := strings.Cut(kv, "=")
				if n, err := strconv.ParseInt(v, 10, 64); err == nil {
					smp.NumLabel[k] = append(smp.NumLabel[k], n)
				} else {
					smp.Label[k] = append(smp.Label[k], v)
				}
			}
			p.Sample = append(p.Sample, smp)
		case "random":
			randomSamples(p, int(num(f[1])), int(num(f[2])), int(num(f[3])), int64(num(f[4])))
		case "comment":
			p.Comments = append(p.Comments, strings.Join(f[1:], " "))
		default:
			panic("unknown line " + s.Text())
		}
	}
	if err := p.CheckValid(); err != nil {
		panic(err)
	}
	out, err := os.Create(os.Args[2])
	if err != nil {
		panic(err)
	}
	if err := p.Write(out); err != nil {
		panic(err)
	}
	if err := out.Close(); err != nil {
		panic(err)
	}
	fmt.Fprintf(os.Stderr, "%s: %d samples, %d locations, %d mappings\n", os.Args[2], len(p.Sample), len(p.Location), len(p.Mapping))
}

// randomSamples adds samples whose stacks are paths from the root of a random call tree: each
// node's location is chosen among all locations by a hash of the node, each node has up to four
// children, so that stacks share prefixes as real ones do.
func randomSamples(p *profile.Profile, samples, stacks, depth int, seed int64) {
	r := rand.New(rand.NewSource(seed))
	locs := p.Location
	pool := make([][]*profile.Location, stacks)
	for i := range pool {
		d := 3 + r.Intn(depth-2)
		node := uint64(1)
		path := make([]*profile.Location, 0, d)
		for k := 0; k < d; k++ {
			node = node*4 + uint64(r.Intn(4)) + uint64(k)
			h := node * 0x9e3779b97f4a7c15
			h ^= h >> 29
			path = append(path, locs[h%uint64(len(locs))])
		}
		// pprof lists the leaf first
		for a, b := 0, len(path)-1; a < b; a, b = a+1, b-1 {
			path[a], path[b] = path[b], path[a]
		}
		pool[i] = path
	}
	z := rand.NewZipf(r, 1.1, 1, uint64(stacks-1))
	for i := 0; i < samples; i++ {
		k := z.Uint64()
		// one sample per draw, as a profiler writes them (not aggregated)
		p.Sample = append(p.Sample, &profile.Sample{Location: pool[k], Value: []int64{1, 10000000}})
	}
}

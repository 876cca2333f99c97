//go:build race

package growth

const race = true

module github.com/schedkit/schedkit/adapters/yarn

go 1.24.0

require (
	github.com/schedkit/schedkit v0.1.0
	pgregory.net/rapid v1.3.0
)

require gonum.org/v1/gonum v0.17.0 // indirect

module github.com/schedkit/schedkit/adapters/yarn

go 1.24.0

replace github.com/schedkit/schedkit => ../..

require (
	github.com/schedkit/schedkit v0.0.0-00010101000000-000000000000
	pgregory.net/rapid v1.3.0
)

require gonum.org/v1/gonum v0.17.0 // indirect

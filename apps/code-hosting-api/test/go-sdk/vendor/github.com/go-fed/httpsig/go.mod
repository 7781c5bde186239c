module github.com/go-fed/httpsig

require golang.org/x/crypto v0.0.0-20200622213623-75b288015ac9

go 1.13

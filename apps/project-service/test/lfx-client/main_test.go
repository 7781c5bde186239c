// LFX's own generated Go client for its project service (Goa's HTTP client and service types of
// github.com/linuxfoundation/lfx-v2-project-service v0.6.0, vendored unchanged) against a running
// project-service: every operation the client has, in JSON, XML and gob, on a project with every
// optional field set ("full") and on one with only the required ones ("sparse"), each in a subtest
// of its own (operation/format/kind) so that one failure hides no other.
//
// A subtest's prerequisites (the project it reads, updates or deletes) are made with plain JSON
// requests (the seed helpers below), never through the client, so each subtest measures one
// operation. Updates and deletes send If-Match with the ETag the client's own Get result carries.
//
// Where this service deliberately answers otherwise than LFX's (412 for a stale If-Match, 401 and
// 403 for callers, 409 for deleting a project with children: statuses LFX's design does not
// declare), the subtests check that the client surfaces the answer as an error carrying our message.
//
// Environment: PROJECT_SERVICE_URL (the service's base URL), PROJECT_SERVICE_TOKEN (a JWT of a
// platform admin), PROJECT_SERVICE_VIEWER_TOKEN (a JWT of a caller with no role anywhere), and
// optionally PROJECT_SERVICE_PARENT (the uid of the project to create under; the ROOT project's,
// found by its slug, when unset).
package lfxclient

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"github.com/linuxfoundation/lfx-v2-project-service/api/project/v1/gen/http/project_service/client"
	projectservice "github.com/linuxfoundation/lfx-v2-project-service/api/project/v1/gen/project_service"
	goahttp "goa.design/goa/v3/http"
)

var (
	baseURL     = strings.TrimSuffix(os.Getenv("PROJECT_SERVICE_URL"), "/")
	adminToken  = os.Getenv("PROJECT_SERVICE_TOKEN")
	viewerToken = os.Getenv("PROJECT_SERVICE_VIEWER_TOKEN")
	parentUID   = os.Getenv("PROJECT_SERVICE_PARENT")
	runID       = strconv.FormatInt(time.Now().UnixNano(), 36)
	counter     int64
)

// Our messages for the answers LFX's design does not declare.
const (
	staleMessage        = "the resource was changed: If-Match does not match the current ETag"
	missingTokenMessage = "missing Authorization header"
	badTokenMessage     = "invalid token"
	forbiddenMessage    = "not allowed to update this project"
	childrenMessage     = "the project still has child projects"
	notFoundMessage     = "project not found"
)

func TestMain(m *testing.M) {
	if baseURL == "" || adminToken == "" || viewerToken == "" {
		fmt.Fprintln(os.Stderr, "PROJECT_SERVICE_URL, PROJECT_SERVICE_TOKEN and PROJECT_SERVICE_VIEWER_TOKEN are required")
		os.Exit(2)
	}
	if parentUID == "" {
		uid, err := rootUID()
		if err != nil {
			fmt.Fprintf(os.Stderr, "the ROOT project (PROJECT_SERVICE_PARENT unset): %v\n", err)
			os.Exit(2)
		}
		parentUID = uid
	}
	if problems := coverageProblems(); len(problems) > 0 {
		fmt.Fprintf(os.Stderr, "the program does not cover the client's fields:\n  %s\n", strings.Join(problems, "\n  "))
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// ---- the client, in each format ----

type format struct{ name, mediaType string }

var formats = []format{
	{"json", "application/json"},
	{"xml", "application/xml"},
	{"gob", "application/gob"},
}

// acceptDoer asks for the format's media type on every request.
type acceptDoer struct{ accept string }

func (d acceptDoer) Do(r *http.Request) (*http.Response, error) {
	r.Header.Set("Accept", d.accept)
	return http.DefaultClient.Do(r)
}

// newClient is the generated client with every endpoint of the service, talking one format: the
// doer asks for it, the request encoder labels and writes bodies in it, and goahttp's
// ResponseDecoder reads each answer by its Content-Type. goahttp.RequestEncoder writes JSON
// whatever the Content-Type says, so XML and gob bodies are written the way it writes JSON: into a
// buffer that becomes the request's body, with encoding/xml and encoding/gob.
func newClient(f format) *projectservice.Client {
	u, err := url.Parse(baseURL)
	if err != nil {
		panic(err)
	}
	encoder := func(r *http.Request) goahttp.Encoder {
		r.Header.Set("Content-Type", f.mediaType)
		var buf bytes.Buffer
		switch f.name {
		case "xml":
			r.Body = io.NopCloser(&buf)
			return xml.NewEncoder(&buf)
		case "gob":
			r.Body = io.NopCloser(&buf)
			return gob.NewEncoder(&buf)
		}
		return goahttp.RequestEncoder(r)
	}
	c := client.NewClient(u.Scheme, u.Host, acceptDoer{f.mediaType}, encoder, goahttp.ResponseDecoder, false)
	return projectservice.NewClient(c.GetProjects(), c.CreateProject(), c.GetOneProjectBase(),
		c.GetOneProjectSettings(), c.UpdateProjectBase(), c.UpdateProjectSettings(), c.DeleteProject(),
		c.Readyz(), c.Livez())
}

// ---- the two kinds of project ----

// A project's values are kept as a CreateProjectPayload: it has every field a client sends.
type kind struct {
	name string
	// create gives the values a project of this kind is created with; update, those an update
	// sends in their place.
	create, update func(slug string) *projectservice.CreateProjectPayload
}

var kinds = []kind{
	{"full", fullProject, fullUpdate},
	{"sparse", sparseProject, sparseUpdate},
}

func str(s string) *string { return &s }
func flag(b bool) *bool    { return &b }

func user(name, username, email, avatar string) *projectservice.UserInfo {
	return &projectservice.UserInfo{Name: &name, Username: &username, Email: &email, Avatar: &avatar}
}

// fullProject sets every field: both categories are ones LFX and this service both accept.
func fullProject(slug string) *projectservice.CreateProjectPayload { return full(slug, 0) }

// fullUpdate changes every field of a full project.
func fullUpdate(slug string) *projectservice.CreateProjectPayload { return full(slug, 1) }

// full is the first (create) or second (update) of each field's two values.
func full(slug string, which int) *projectservice.CreateProjectPayload {
	pick := func(values ...string) *string { return &values[which] }
	users := func(values ...[]*projectservice.UserInfo) []*projectservice.UserInfo { return values[which] }
	alice := user("Alice Ünïcødé", "alice", "alice@example.com", "https://example.com/alice.png")
	return &projectservice.CreateProjectPayload{
		Slug:                       slug,
		Name:                       *pick(`LFX client <full> & "friends" ✓`, "LFX client, updated"),
		Description:                *pick("line one\nline two\ttabbed", "updated through the generated client"),
		ParentUID:                  parentUID,
		Public:                     flag(which == 0),
		IsFoundation:               flag(which == 0),
		AutojoinEnabled:            flag(which == 0),
		Stage:                      pick("Formation - Engaged", "Active"),
		Category:                   pick("Sandbox", "Incubating"),
		LegalEntityType:            pick("Series LLC", "Incorporated Entity"),
		LegalEntityName:            pick("LFX Client Series LLC", "LFX Client Inc."),
		LegalParentUID:             pick("0b6a1c86-3f0e-4f55-9a3e-2d0c4c7d9e11", "5f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b"),
		FundingModel:               [][]string{{"Crowdfunding", "Membership"}, {"Alternate Funding"}}[which],
		CharterURL:                 pick("https://example.com/charter?x=1&y=2", "https://example.org/charter-v2"),
		EntityFormationDocumentURL: pick("https://example.com/formation.pdf", "https://example.org/formation-v2.pdf"),
		LogoURL:                    pick("https://example.com/logo.svg", "https://example.org/logo-v2.png"),
		RepositoryURL:              pick("https://github.com/example/project", "https://gitlab.com/example/project"),
		WebsiteURL:                 pick("https://example.com/", "https://example.org/project"),
		FormationDate:              pick("2021-02-28", "2022-06-15"),
		EntityDissolutionDate:      pick("2031-12-31", "2040-01-01"),
		AnnouncementDate:           pick("2021-03-01", "2022-07-01"),
		MissionStatement:           pick("To test every field.", "Updated mission."),
		Writers: users(
			[]*projectservice.UserInfo{alice},
			[]*projectservice.UserInfo{user("Erin Writer", "erin", "erin@example.com", "https://example.com/erin.png"), alice},
		),
		Auditors: users(
			[]*projectservice.UserInfo{user("Bob Auditor", "bob", "bob@example.com", "https://example.com/bob.png")},
			[]*projectservice.UserInfo{user("Frank Auditor", "frank", "frank@example.com", "https://example.com/frank.png")},
		),
		MeetingCoordinators: users(
			[]*projectservice.UserInfo{
				user("Carol Coordinator", "carol", "carol@example.com", "https://example.com/carol.png"),
				user("Dave Coordinator", "dave", "dave@example.org", "https://example.org/dave.jpg"),
			},
			[]*projectservice.UserInfo{user("Grace Coordinator", "grace", "grace@example.com", "https://example.com/grace.png")},
		),
	}
}

// sparseProject sets only what a create needs; sparseUpdate changes those.
func sparseProject(slug string) *projectservice.CreateProjectPayload { return sparse(slug, 0) }

func sparseUpdate(slug string) *projectservice.CreateProjectPayload { return sparse(slug, 1) }

func sparse(slug string, which int) *projectservice.CreateProjectPayload {
	return &projectservice.CreateProjectPayload{
		Slug:        slug,
		Name:        []string{"LFX client sparse", "LFX client sparse, updated"}[which],
		Description: []string{"only the required fields", "still only the required fields"}[which],
		ParentUID:   parentUID,
	}
}

// The fields compared, by their names in the client's types.
var (
	baseFields = []string{"Slug", "Name", "Description", "ParentUID", "Public", "IsFoundation",
		"AutojoinEnabled", "Stage", "Category", "LegalEntityType", "LegalEntityName", "LegalParentUID",
		"FundingModel", "CharterURL", "EntityFormationDocumentURL", "LogoURL", "RepositoryURL",
		"WebsiteURL", "FormationDate", "EntityDissolutionDate"}
	settingsFields = []string{"MissionStatement", "AnnouncementDate", "Writers", "Auditors",
		"MeetingCoordinators"}
	userFields = []string{"Name", "Email", "Username", "Avatar"}
	// Set by the service, not sent.
	serviceFields = []string{"UID", "CreatedAt", "UpdatedAt"}
	// Headers and the query, not body fields.
	requestOnlyFields = []string{"BearerToken", "XSync", "Version", "IfMatch", "UID"}
)

// coverageProblems says where the program would miss a field: one of the client's result types
// has a field no comparison names, or a full project or its updates leave a field of a payload unset.
func coverageProblems() []string {
	var problems []string
	compared := append(append(append([]string{}, baseFields...), settingsFields...), serviceFields...)
	for _, result := range []interface{}{projectservice.ProjectFull{}, projectservice.ProjectBase{},
		projectservice.ProjectSettings{}} {
		typ := reflect.TypeOf(result)
		for i := 0; i < typ.NumField(); i++ {
			if !contains(compared, typ.Field(i).Name) {
				problems = append(problems, fmt.Sprintf("%s.%s is never compared", typ.Name(), typ.Field(i).Name))
			}
		}
	}
	full := reflect.ValueOf(fullProject("x")).Elem()
	for i := 0; i < full.NumField(); i++ {
		name := full.Type().Field(i).Name
		if !contains(requestOnlyFields, name) && !present(full.Field(i)) {
			problems = append(problems, fmt.Sprintf("the full project leaves %s unset", name))
		}
	}
	// The updates send every field of a full project too.
	for _, payload := range []interface{}{basePayload("u", "e", fullProject("x")),
		settingsPayload("u", "e", fullProject("x"))} {
		value := reflect.ValueOf(payload).Elem()
		for i := 0; i < value.NumField(); i++ {
			name := value.Type().Field(i).Name
			if !contains(requestOnlyFields, name) && !present(value.Field(i)) {
				problems = append(problems, fmt.Sprintf("%s leaves %s unset", value.Type().Name(), name))
			}
		}
	}
	return problems
}

// ---- comparing what the client decoded with what was sent ----

// wire is a field's name on the wire: ParentUID → parent_uid.
func wire(name string) string {
	var out []rune
	runes := []rune(name)
	for i, r := range runes {
		if i > 0 && unicode.IsUpper(r) && unicode.IsLower(runes[i-1]) {
			out = append(out, '_')
		}
		out = append(out, unicode.ToLower(r))
	}
	return string(out)
}

// present: a field that carries something. A nil pointer, an empty list and a false flag do not
// (gob never sends a zero value, so false and "not sent" look alike there).
func present(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Ptr:
		return !v.IsNil() && (v.Elem().Kind() != reflect.Bool || v.Elem().Bool())
	case reflect.Slice:
		return v.Len() > 0
	case reflect.String:
		return true // a required field
	}
	panic("unexpected field kind " + v.Kind().String())
}

// show is a field's value for a message.
func show(v reflect.Value) string {
	switch {
	case v.Kind() == reflect.Ptr && v.IsNil():
		return "nil (left out)"
	case v.Kind() == reflect.Ptr && v.Elem().Kind() == reflect.Struct:
		return show(v.Elem())
	case v.Kind() == reflect.Ptr:
		return fmt.Sprintf("%q", fmt.Sprint(v.Elem().Interface()))
	case v.Kind() == reflect.Slice:
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = show(v.Index(i))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case v.Kind() == reflect.Struct:
		parts := []string{}
		for _, name := range userFields {
			parts = append(parts, wire(name)+": "+show(v.FieldByName(name)))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprintf("%q", fmt.Sprint(v.Interface()))
}

// same: got carries exactly what want does (nothing where want carries nothing).
func same(got, want reflect.Value) bool {
	if !present(want) {
		if got.Kind() == reflect.Ptr && !got.IsNil() && got.Elem().Kind() == reflect.String {
			return false // "" is not left out: LFX's service leaves an unset field out
		}
		return !present(got)
	}
	if !present(got) {
		return false
	}
	for want.Kind() == reflect.Ptr {
		want = want.Elem()
	}
	for got.Kind() == reflect.Ptr {
		got = got.Elem()
	}
	if want.Kind() == reflect.Slice {
		if got.Len() != want.Len() {
			return false
		}
		for i := 0; i < want.Len(); i++ {
			if !same(got.Index(i), want.Index(i)) {
				return false
			}
		}
		return true
	}
	if want.Kind() == reflect.Struct {
		for _, name := range userFields {
			if !same(got.FieldByName(name), want.FieldByName(name)) {
				return false
			}
		}
		return true
	}
	return got.Interface() == want.Interface()
}

// compare checks each named field of got (a *ProjectFull, *ProjectBase or *ProjectSettings)
// against the values sent, one error per field that differs.
func compare(t *testing.T, where string, got interface{}, want *projectservice.CreateProjectPayload, fields []string) {
	t.Helper()
	g := reflect.ValueOf(got)
	if g.IsNil() {
		t.Fatalf("%s: the client returned no %s", where, g.Type().Elem().Name())
	}
	g = g.Elem()
	w := reflect.ValueOf(want).Elem()
	for _, name := range fields {
		gf, wf := g.FieldByName(name), w.FieldByName(name)
		if !gf.IsValid() || !wf.IsValid() {
			t.Fatalf("%s: %s has no field %s", where, g.Type().Name(), name)
		}
		if !same(gf, wf) {
			t.Errorf("%s: %s is %s, want %s", where, wire(name), show(gf), show(wf))
		}
	}
}

// checkService checks what the service sets itself: the uid (when known) and both stamps.
func checkService(t *testing.T, where string, uid, createdAt, updatedAt *string, wantUID string) {
	t.Helper()
	if uid == nil || (wantUID != "" && *uid != wantUID) {
		t.Errorf("%s: uid is %s, want %q", where, show(reflect.ValueOf(uid)), wantUID)
	}
	if createdAt == nil || updatedAt == nil {
		t.Errorf("%s: created_at %s, updated_at %s: want both", where, show(reflect.ValueOf(createdAt)),
			show(reflect.ValueOf(updatedAt)))
	}
}

// ---- errors ----

// describe is an error for a message: generated error types print nothing of their own.
func describe(err error) string {
	var clientErr *goahttp.ClientError
	switch {
	case err == nil:
		return "no error"
	case errors.As(err, &clientErr):
		return fmt.Sprintf("%s (%s)", err.Error(), clientErr.Name)
	}
	return fmt.Sprintf("%T%+v", err, err)
}

// expectAnswer checks that the client surfaced an answer of this status, which LFX's design does
// not declare for the operation, as its error for an unexpected answer, carrying our message.
func expectAnswer(t *testing.T, where string, err error, status int, message string) {
	t.Helper()
	var clientErr *goahttp.ClientError
	if !errors.As(err, &clientErr) {
		t.Errorf("%s: got %s, want the client's error for a %d answer carrying %q", where, describe(err),
			status, message)
		return
	}
	if clientErr.Name != "invalid_response" ||
		!strings.Contains(clientErr.Message, fmt.Sprintf("invalid response code %d,", status)) ||
		!strings.Contains(clientErr.Message, message) {
		t.Errorf("%s: got %s, want the client's error for a %d answer carrying %q", where, describe(err),
			status, message)
	}
}

// ---- seed helpers: plain JSON over HTTP, not the client ----

func unique() string {
	return fmt.Sprintf("lfx-%s-%d", runID, atomic.AddInt64(&counter, 1))
}

func request(method, path, token string, body interface{}) (*http.Response, []byte, error) {
	var reader io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return nil, nil, err
		}
		reader = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, baseURL+path, reader)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp, data, err
}

func seed(t *testing.T, method, path string, body interface{}, want int) (http.Header, map[string]interface{}) {
	t.Helper()
	resp, data, err := request(method, path, adminToken, body)
	if err != nil {
		t.Fatalf("seed %s %s: %v", method, path, err)
	}
	if resp.StatusCode != want {
		t.Fatalf("seed %s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, data)
	}
	out := map[string]interface{}{}
	if len(data) > 0 {
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatalf("seed %s %s: %v: %s", method, path, err, data)
		}
	}
	return resp.Header, out
}

func rootUID() (string, error) {
	resp, data, err := request("GET", "/projects?slug=root", adminToken, nil)
	if err != nil {
		return "", err
	}
	var list struct {
		Projects []struct {
			UID string `json:"uid"`
		} `json:"projects"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(data, &list) != nil || len(list.Projects) != 1 {
		return "", fmt.Errorf("GET /projects?slug=root: %d %s", resp.StatusCode, data)
	}
	return list.Projects[0].UID, nil
}

// seedProject creates a project with these values (the body the generated client would send, in
// JSON) and deletes it when the subtest ends.
func seedProject(t *testing.T, values *projectservice.CreateProjectPayload) string {
	t.Helper()
	_, created := seed(t, "POST", "/projects", client.NewCreateProjectRequestBody(values), http.StatusCreated)
	uid, _ := created["uid"].(string)
	if uid == "" {
		t.Fatalf("seed POST /projects: no uid in %v", created)
	}
	t.Cleanup(func() { _, _, _ = request("DELETE", "/projects/"+uid, adminToken, nil) })
	return uid
}

// seedETag is the ETag of a plain GET.
func seedETag(t *testing.T, path string) string {
	t.Helper()
	header, _ := seed(t, "GET", path, nil, http.StatusOK)
	return header.Get("ETag")
}

// The ETags updates and deletes send: the ones the client's own Get results carry. Should the Get
// fail, that is an error of this subtest too, and the ETag of a plain GET stands in, so that the
// operation under test is still tried.
func clientETag(t *testing.T, where, operation, path string, get func() (*string, error)) string {
	t.Helper()
	etag, err := get()
	if err == nil && etag != nil {
		return *etag
	}
	t.Errorf("%s: %s for the If-Match: %s (no ETag); using the ETag of a plain GET", where, operation, describe(err))
	return seedETag(t, path)
}

func baseETag(t *testing.T, c *projectservice.Client, where, uid string) string {
	t.Helper()
	return clientETag(t, where, "GetOneProjectBase", "/projects/"+uid, func() (*string, error) {
		res, err := c.GetOneProjectBase(context.Background(),
			&projectservice.GetOneProjectBasePayload{BearerToken: &adminToken, UID: &uid})
		if err != nil {
			return nil, err
		}
		return res.Etag, nil
	})
}

func settingsETag(t *testing.T, c *projectservice.Client, where, uid string) string {
	t.Helper()
	return clientETag(t, where, "GetOneProjectSettings", "/projects/"+uid+"/settings", func() (*string, error) {
		res, err := c.GetOneProjectSettings(context.Background(),
			&projectservice.GetOneProjectSettingsPayload{BearerToken: &adminToken, UID: &uid})
		if err != nil {
			return nil, err
		}
		return res.Etag, nil
	})
}

func basePayload(uid, etag string, v *projectservice.CreateProjectPayload) *projectservice.UpdateProjectBasePayload {
	return &projectservice.UpdateProjectBasePayload{
		BearerToken: &adminToken, IfMatch: &etag, UID: &uid,
		Slug: v.Slug, Name: v.Name, Description: v.Description, ParentUID: v.ParentUID,
		Public: v.Public, IsFoundation: v.IsFoundation, AutojoinEnabled: v.AutojoinEnabled,
		Stage: v.Stage, Category: v.Category, LegalEntityType: v.LegalEntityType,
		LegalEntityName: v.LegalEntityName, LegalParentUID: v.LegalParentUID, FundingModel: v.FundingModel,
		CharterURL: v.CharterURL, EntityFormationDocumentURL: v.EntityFormationDocumentURL,
		LogoURL: v.LogoURL, RepositoryURL: v.RepositoryURL, WebsiteURL: v.WebsiteURL,
		FormationDate: v.FormationDate, EntityDissolutionDate: v.EntityDissolutionDate,
	}
}

func settingsPayload(uid, etag string, v *projectservice.CreateProjectPayload) *projectservice.UpdateProjectSettingsPayload {
	return &projectservice.UpdateProjectSettingsPayload{
		BearerToken: &adminToken, IfMatch: &etag, UID: &uid,
		MissionStatement: v.MissionStatement, AnnouncementDate: v.AnnouncementDate,
		Writers: v.Writers, Auditors: v.Auditors, MeetingCoordinators: v.MeetingCoordinators,
	}
}

// ---- the subtests ----

func TestLFXClient(t *testing.T) {
	ctx := context.Background()
	full := append(append([]string{}, baseFields...), settingsFields...)

	// One subtest per format and kind of project: <operation>/<format>/<kind>.
	each := func(operation string, run func(t *testing.T, c *projectservice.Client, where string, k kind)) {
		t.Run(operation, func(t *testing.T) {
			for _, f := range formats {
				f := f
				t.Run(f.name, func(t *testing.T) {
					c := newClient(f)
					for _, k := range kinds {
						k := k
						t.Run(k.name, func(t *testing.T) {
							run(t, c, fmt.Sprintf("%s %s %s", operation, f.name, k.name), k)
						})
					}
				})
			}
		})
	}
	// One subtest per format: <check>/<format>.
	perFormat := func(check string, run func(t *testing.T, c *projectservice.Client, where string)) {
		t.Run(check, func(t *testing.T) {
			for _, f := range formats {
				f := f
				t.Run(f.name, func(t *testing.T) { run(t, newClient(f), check+" "+f.name) })
			}
		})
	}

	// The probes: LFX's design declares them as text/plain, whatever the Accept.
	probes := map[string]func(*projectservice.Client) ([]byte, error){
		"Livez":  func(c *projectservice.Client) ([]byte, error) { return c.Livez(ctx) },
		"Readyz": func(c *projectservice.Client) ([]byte, error) { return c.Readyz(ctx) },
	}
	for _, probe := range []string{"Livez", "Readyz"} {
		call := probes[probe]
		perFormat(probe, func(t *testing.T, c *projectservice.Client, where string) {
			res, err := call(c)
			if err != nil {
				t.Fatalf("%s: %s", where, describe(err))
			}
			if string(res) != "OK" {
				t.Errorf("%s: %q, want %q", where, res, "OK")
			}
		})
	}

	each("GetProjects", func(t *testing.T, c *projectservice.Client, where string, k kind) {
		values := k.create(unique())
		uid := seedProject(t, values)
		res, err := c.GetProjects(ctx, &projectservice.GetProjectsPayload{BearerToken: &adminToken})
		if err != nil {
			t.Fatalf("%s: %s", where, describe(err))
		}
		if res.CacheControl == nil {
			t.Errorf("%s: no Cache-Control", where)
		}
		var root, found *projectservice.ProjectFull
		for _, project := range res.Projects {
			switch {
			case project == nil || project.UID == nil:
				t.Errorf("%s: a project without a uid in the list", where)
			case *project.UID == uid:
				found = project
			case project.Slug != nil && *project.Slug == "root":
				root = project
			}
		}
		if root == nil {
			t.Errorf("%s: no ROOT project (slug root) among the %d listed", where, len(res.Projects))
		} else if root.Name == nil || *root.Name != "ROOT" || (root.ParentUID != nil && *root.ParentUID != "") {
			t.Errorf("%s: ROOT is named %s with parent_uid %s, want \"ROOT\" and none", where,
				show(reflect.ValueOf(root.Name)), show(reflect.ValueOf(root.ParentUID)))
		}
		if found == nil {
			t.Fatalf("%s: project %s not among the %d listed", where, uid, len(res.Projects))
		}
		compare(t, where, found, values, full)
		checkService(t, where, found.UID, found.CreatedAt, found.UpdatedAt, uid)
	})

	each("CreateProject", func(t *testing.T, c *projectservice.Client, where string, k kind) {
		values := k.create(unique())
		values.BearerToken = &adminToken
		res, err := c.CreateProject(ctx, values)
		if res != nil && res.UID != nil {
			uid := *res.UID
			t.Cleanup(func() { _, _, _ = request("DELETE", "/projects/"+uid, adminToken, nil) })
		}
		if err != nil {
			t.Fatalf("%s: %s", where, describe(err))
		}
		compare(t, where, res, values, full)
		checkService(t, where, res.UID, res.CreatedAt, res.UpdatedAt, "")
	})

	each("GetOneProjectBase", func(t *testing.T, c *projectservice.Client, where string, k kind) {
		values := k.create(unique())
		uid := seedProject(t, values)
		res, err := c.GetOneProjectBase(ctx, &projectservice.GetOneProjectBasePayload{BearerToken: &adminToken, UID: &uid})
		if err != nil {
			t.Fatalf("%s: %s", where, describe(err))
		}
		if want := seedETag(t, "/projects/"+uid); res.Etag == nil || *res.Etag != want {
			t.Errorf("%s: etag %s, want %q", where, show(reflect.ValueOf(res.Etag)), want)
		}
		compare(t, where, res.Project, values, baseFields)
		checkService(t, where, res.Project.UID, res.Project.CreatedAt, res.Project.UpdatedAt, uid)
	})

	each("GetOneProjectSettings", func(t *testing.T, c *projectservice.Client, where string, k kind) {
		values := k.create(unique())
		uid := seedProject(t, values)
		res, err := c.GetOneProjectSettings(ctx,
			&projectservice.GetOneProjectSettingsPayload{BearerToken: &adminToken, UID: &uid})
		if err != nil {
			t.Fatalf("%s: %s", where, describe(err))
		}
		if want := seedETag(t, "/projects/"+uid+"/settings"); res.Etag == nil || *res.Etag != want {
			t.Errorf("%s: etag %s, want %q", where, show(reflect.ValueOf(res.Etag)), want)
		}
		settings := res.ProjectSettings
		compare(t, where, settings, values, settingsFields)
		checkService(t, where, settings.UID, settings.CreatedAt, settings.UpdatedAt, uid)
	})

	each("UpdateProjectBase", func(t *testing.T, c *projectservice.Client, where string, k kind) {
		uid := seedProject(t, k.create(unique()))
		etag := baseETag(t, c, where, uid)
		values := k.update(unique())
		res, err := c.UpdateProjectBase(ctx, basePayload(uid, etag, values))
		if err != nil {
			t.Fatalf("%s: %s", where, describe(err))
		}
		compare(t, where, res, values, baseFields)
		checkService(t, where, res.UID, res.CreatedAt, res.UpdatedAt, uid)
		if now := seedETag(t, "/projects/"+uid); now == etag {
			t.Errorf("%s: the ETag is still %s after the update", where, now)
		}
	})

	each("UpdateProjectSettings", func(t *testing.T, c *projectservice.Client, where string, k kind) {
		uid := seedProject(t, k.create(unique()))
		etag := settingsETag(t, c, where, uid)
		values := k.update("")
		res, err := c.UpdateProjectSettings(ctx, settingsPayload(uid, etag, values))
		if err != nil {
			t.Fatalf("%s: %s", where, describe(err))
		}
		compare(t, where, res, values, settingsFields)
		checkService(t, where, res.UID, res.CreatedAt, res.UpdatedAt, uid)
		if now := seedETag(t, "/projects/"+uid+"/settings"); now == etag {
			t.Errorf("%s: the settings ETag is still %s after the update", where, now)
		}
	})

	each("DeleteProject", func(t *testing.T, c *projectservice.Client, where string, k kind) {
		uid := seedProject(t, k.create(unique()))
		etag := baseETag(t, c, where, uid)
		err := c.DeleteProject(ctx, &projectservice.DeleteProjectPayload{BearerToken: &adminToken, IfMatch: &etag, UID: &uid})
		if err != nil {
			t.Fatalf("%s: %s", where, describe(err))
		}
		// Gone: the client's typed NotFound, with our message.
		_, err = c.GetOneProjectBase(ctx, &projectservice.GetOneProjectBasePayload{BearerToken: &adminToken, UID: &uid})
		var notFound *projectservice.NotFoundError
		if !errors.As(err, &notFound) || notFound.Message != notFoundMessage {
			t.Errorf("%s: reading it afterwards gave %s, want NotFoundError %q", where, describe(err), notFoundMessage)
		}
	})

	// ---- where this service deliberately answers otherwise than LFX's ----

	// 412 for a stale If-Match, on each operation that sends one (LFX answers 400).
	perFormat("StaleIfMatch", func(t *testing.T, c *projectservice.Client, where string) {
		values := sparseProject(unique())
		uid := seedProject(t, values)
		base := baseETag(t, c, where, uid)
		settings := settingsETag(t, c, where, uid)
		seed(t, "PUT", "/projects/"+uid, client.NewUpdateProjectBaseRequestBody(basePayload(uid, base, values)), http.StatusOK)
		seed(t, "PUT", "/projects/"+uid+"/settings",
			client.NewUpdateProjectSettingsRequestBody(settingsPayload(uid, settings, values)), http.StatusOK)
		_, err := c.UpdateProjectBase(ctx, basePayload(uid, base, values))
		expectAnswer(t, where+" UpdateProjectBase", err, http.StatusPreconditionFailed, staleMessage)
		_, err = c.UpdateProjectSettings(ctx, settingsPayload(uid, settings, values))
		expectAnswer(t, where+" UpdateProjectSettings", err, http.StatusPreconditionFailed, staleMessage)
		err = c.DeleteProject(ctx, &projectservice.DeleteProjectPayload{BearerToken: &adminToken, IfMatch: &base, UID: &uid})
		expectAnswer(t, where+" DeleteProject", err, http.StatusPreconditionFailed, staleMessage)
	})

	// 401 without a token, or with one that does not verify.
	perFormat("Unauthenticated", func(t *testing.T, c *projectservice.Client, where string) {
		_, err := c.GetProjects(ctx, &projectservice.GetProjectsPayload{})
		expectAnswer(t, where+" GetProjects without a token", err, http.StatusUnauthorized, missingTokenMessage)
		values := sparseProject(unique())
		values.BearerToken = str("not-a-jwt")
		res, err := c.CreateProject(ctx, values)
		if res != nil && res.UID != nil {
			t.Errorf("%s: CreateProject with a bad token created %s", where, *res.UID)
		}
		expectAnswer(t, where+" CreateProject with a bad token", err, http.StatusUnauthorized, badTokenMessage)
	})

	// 403 for a caller who may view the project but not write it.
	perFormat("Forbidden", func(t *testing.T, c *projectservice.Client, where string) {
		values := sparseProject(unique())
		values.Public = flag(true)
		uid := seedProject(t, values)
		payload := basePayload(uid, baseETag(t, c, where, uid), values)
		payload.BearerToken = &viewerToken
		_, err := c.UpdateProjectBase(ctx, payload)
		expectAnswer(t, where+" UpdateProjectBase by a viewer", err, http.StatusForbidden, forbiddenMessage)
	})

	// 409 for deleting a project that still has children.
	perFormat("DeleteWithChildren", func(t *testing.T, c *projectservice.Client, where string) {
		parent := seedProject(t, sparseProject(unique()))
		child := sparseProject(unique())
		child.ParentUID = parent
		seedProject(t, child)
		etag := baseETag(t, c, where, parent)
		err := c.DeleteProject(ctx, &projectservice.DeleteProjectPayload{BearerToken: &adminToken, IfMatch: &etag, UID: &parent})
		expectAnswer(t, where+" DeleteProject", err, http.StatusConflict, childrenMessage)
		seedETag(t, "/projects/"+parent) // still there
	})
}

func contains(list []string, value string) bool {
	for _, item := range list {
		if item == value {
			return true
		}
	}
	return false
}
